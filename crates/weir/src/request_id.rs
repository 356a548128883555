//! nginx's `$request_id`: 16 bytes no client can guess, in 32 lowercase hex digits, one per
//! request. Made by a keyed hash (SipHash-1-3, 128 bits) of a process-wide count, its key drawn
//! once per process from std's `RandomState` (which the OS seeds): no two requests of a process
//! share one, and without the key the next cannot be told from the last. (nginx draws 16 bytes
//! from `RAND_bytes`.)

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use siphasher::sip128::{Hasher128, SipHasher13};

/// A request's id, as hex digits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct RequestId([u8; 32]);

impl RequestId {
    /// The next request's id.
    pub fn next() -> RequestId {
        static KEY: OnceLock<(u64, u64)> = OnceLock::new();
        static COUNT: AtomicU64 = AtomicU64::new(0);
        let (key0, key1) = *KEY.get_or_init(|| {
            let state = std::collections::hash_map::RandomState::new();
            (state.hash_one(0u64), state.hash_one(1u64))
        });
        let count = COUNT.fetch_add(1, Ordering::Relaxed);
        let mut hasher = SipHasher13::new_with_keys(key0, key1);
        std::hash::Hasher::write_u64(&mut hasher, count);
        let bytes = hasher.finish128().as_bytes();
        let mut hex = [0u8; 32];
        for (index, byte) in bytes.iter().enumerate() {
            hex[2 * index] = HEX[usize::from(byte >> 4)];
            hex[2 * index + 1] = HEX[usize::from(byte & 0xf)];
        }
        RequestId(hex)
    }

    /// An id of these digits, for tests of what writes one.
    #[cfg(test)]
    pub fn from_digits(digits: [u8; 32]) -> RequestId {
        RequestId(digits)
    }

    pub fn as_str(&self) -> &str {
        // Hex digits only, so UTF-8.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

impl std::fmt::Debug for RequestId {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_32_hex_digits_and_differ() {
        let ids: Vec<RequestId> = (0..1000).map(|_| RequestId::next()).collect();
        for id in &ids {
            assert_eq!(id.as_str().len(), 32);
            assert!(
                id.as_str().bytes().all(|byte| HEX.contains(&byte)),
                "{id:?}"
            );
        }
        let mut unique: Vec<&str> = ids.iter().map(RequestId::as_str).collect();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len());
        // Not a count: consecutive ids share no long prefix.
        assert_ne!(ids[0].as_str()[..8], ids[1].as_str()[..8]);
    }
}
