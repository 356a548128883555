#!/bin/sh
while ! grep -q '^done2' /tmp/hb/ab.log; do sleep 5; done
/tmp/hb/ab.sh lm2:/tmp/hb/weir-main:lab ld3:/tmp/hb/weir-disp:lab
