import asyncio, time, websockets, sys
async def hold(i):
    async with websockets.connect("ws://127.0.0.1:8080/ws") as ws:
        await ws.send("hi"); print("ws", i, await ws.recv(), flush=True)
        await asyncio.sleep(15)
async def main():
    tasks = [asyncio.create_task(hold(i)) for i in range(3)]
    await asyncio.sleep(2)
    for t in tasks: pass
    await asyncio.gather(*tasks)
asyncio.run(main())
