//! Bulletproof generators kept on disk, so that a one-shot verifier (`zeenot verify`) does not
//! derive `2·n` of them by hashing to the curve every time (0.5 s of CPU for the `2^15` gates of
//! the default gate limit).
//!
//! The file for `n` generators is `bulletproof-generators-v1-n` in the directory of the record
//! of validated proving keys (`zeenot.keycache`: `$ZEENOT_CACHE_DIR`, empty for none, else
//! `$XDG_CACHE_HOME/zeenot/validated-keys`, else `~/.cache/zeenot/validated-keys`), holding
//! `G_0 … G_{n−1}` then `H_0 … H_{n−1}` as [`zeenot_crypto::encode_table`] writes them. Only the
//! sizes pinned below are stored, and a file is used only if its SHA-256 is the pinned one: it
//! is then exactly what the derivation makes, whoever wrote it (other bytes would be a SHA-256
//! second preimage), so the file needs no trust in its directory. Any failure to read or write
//! falls back to deriving; a file is written under a temporary name and renamed, so a reader
//! never sees half of one.

use std::io::Write;
use std::path::PathBuf;

use zeenot_crypto::{decode_table, encode_table};

use crate::bulletproofs::BulletproofGens;

/// `(n, SHA-256 of the table of G_0 … G_{n−1} ‖ H_0 … H_{n−1})`: the generators themselves,
/// pinned (`pins_are_the_derivation` checks the first three against one-at-a-time hashing,
/// `all_pins_are_the_derivation`, ignored by default for its 2 s, all of them).
const PINNED: [(usize, &str); 7] = [
    (1 << 10, "9ff562c7345dbe99dd0930f572008ba4f9f195055c3180a283d495ff207969fc"),
    (1 << 11, "a4bd44cdbcc51550a2f629d5b7fc2136642a61f2416f94571a1b845360016a19"),
    (1 << 12, "3bd3f8560ec4536e1161ddb998b213d6804dc63a7c9b1bc6cce0f146ce955ef9"),
    (1 << 13, "16b718b8ca13b11091ea17912517215f44e0c852aa4cebbf19886fee2694f9a9"),
    (1 << 14, "01aec102eb1e3954f485db72716d673f62f508c983b524c4d0f77108cfd74dd7"),
    (1 << 15, "7d07e4a8bab54bdd3bba4945d9cd1ee3c5ca1d952780d959b08704a889110e7b"),
    (1 << 16, "19fca61800ae4c0677fe6347fb454acd72bc6c42d1dd38c79cdd09dd699c10a8"),
];

fn pin(n: usize) -> Option<[u8; 32]> {
    let (_, hex_digest) = PINNED.iter().find(|(m, _)| *m == n)?;
    hex::decode(hex_digest).ok()?.try_into().ok()
}

/// The directory of `zeenot.keycache`, or `None` when it is disabled.
fn directory() -> Option<PathBuf> {
    match std::env::var_os("ZEENOT_CACHE_DIR") {
        Some(d) if d.is_empty() => None,
        Some(d) => Some(PathBuf::from(d)),
        None => {
            let base = match std::env::var_os("XDG_CACHE_HOME") {
                Some(x) if !x.is_empty() => PathBuf::from(x),
                _ => PathBuf::from(std::env::var_os("HOME")?).join(".cache"),
            };
            Some(base.join("zeenot").join("validated-keys"))
        }
    }
}

fn file_name(n: usize) -> String {
    format!("bulletproof-generators-v1-{n}")
}

/// The stored generators for exactly `n` indices, if a file with the pinned digest is there.
pub(crate) fn load(n: usize) -> Option<BulletproofGens> {
    let digest = pin(n)?;
    let path = directory()?.join(file_name(n));
    // the length first: nothing larger than the pinned table is read
    if std::fs::metadata(&path).ok()?.len() != 128 * n as u64 {
        return None;
    }
    let points = decode_table(&std::fs::read(&path).ok()?, &digest)?;
    let (g, h) = points.split_at(n);
    Some(BulletproofGens::from_vectors(g.to_vec(), h.to_vec()))
}

/// Stores `gens` if their size is pinned (best effort: errors are ignored).
pub(crate) fn store(gens: &BulletproofGens) {
    let n = gens.capacity();
    if pin(n).is_none() {
        return;
    }
    let Some(dir) = directory() else { return };
    let _ = write(&dir, n, gens);
}

fn write(dir: &std::path::Path, n: usize, gens: &BulletproofGens) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
    let mut all = gens.g_vec().to_vec();
    all.extend_from_slice(gens.h_vec());
    let tmp = dir.join(format!(".{}.{}.tmp", file_name(n), std::process::id()));
    let mut f = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&tmp)?;
    let written = f.write_all(&encode_table(&all)).and_then(|()| f.sync_all());
    drop(f);
    match written.and_then(|()| std::fs::rename(&tmp, dir.join(file_name(n)))) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bulletproofs::GENERATORS_DOMAIN;
    use zeenot_crypto::{hash_to_curve, Point};

    fn one_at_a_time(n: usize) -> Vec<Point> {
        let point = |tag: u8, i: usize| {
            let mut msg = vec![tag];
            msg.extend_from_slice(&(i as u64).to_le_bytes());
            hash_to_curve(GENERATORS_DOMAIN, &msg)
        };
        let mut all: Vec<Point> = (0..n).map(|i| point(b'G', i)).collect();
        all.extend((0..n).map(|i| point(b'H', i)));
        all
    }

    fn check_pins(count: usize) {
        for &(n, _) in &PINNED[..count] {
            let derived = BulletproofGens::new(n);
            let mut all = derived.g_vec().to_vec();
            all.extend_from_slice(derived.h_vec());
            let table = encode_table(&all);
            assert!(decode_table(&table, &pin(n).unwrap()).is_some(), "pin of {n}");
        }
    }

    #[test]
    fn pins_are_the_derivation() {
        check_pins(3);
        // and the derivation is the one-at-a-time definition (the pin of 2^10, independently)
        let table = encode_table(&one_at_a_time(1 << 10));
        assert!(decode_table(&table, &pin(1 << 10).unwrap()).is_some());
    }

    #[test]
    #[ignore = "derives 2^17 generators"]
    fn all_pins_are_the_derivation() {
        check_pins(PINNED.len());
    }

    #[test]
    fn stores_loads_and_refuses_other_bytes() {
        let dir = std::env::temp_dir().join(format!("zeenot-gens-test-{}", std::process::id()));
        let gens = BulletproofGens::new(1 << 10);
        write(&dir, 1 << 10, &gens).unwrap();
        let path = dir.join(file_name(1 << 10));
        let read = |dir: &std::path::Path| {
            let bytes = std::fs::read(dir.join(file_name(1 << 10))).unwrap();
            decode_table(&bytes, &pin(1 << 10).unwrap())
        };
        let points = read(&dir).expect("the stored table has the pinned digest");
        assert_eq!(&points[..1 << 10], gens.g_vec());
        assert_eq!(&points[1 << 10..], gens.h_vec());
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[100] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(read(&dir).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
