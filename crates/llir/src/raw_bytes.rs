//! Input bytes that are not UTF-8, carried through the `&str` world losslessly. LLVM's parser keeps
//! raw bytes in comments, `c"..."` and metadata strings and quoted names; this crate works on text.
//! A module that is not valid UTF-8 is read as text once, each byte of an invalid sequence becoming
//! one code point of a 128-character private-use block that does not occur in that input, and the
//! output turns that block's characters back into their bytes. Valid UTF-8 (the common case) is taken
//! as it is and written as it is: the mapping costs nothing there.
//!
//! One byte, one character: a column counted in characters (as the diagnostics count them) is the
//! column of the byte in the input line.

use std::borrow::Cow;
use std::io::Write;

/// The private-use ranges blocks are chosen from, in order: the Basic Multilingual Plane's (three
/// UTF-8 bytes a character) first, then planes 15 and 16 (four).
const PRIVATE_USE: [(u32, u32); 3] = [(0xE000, 0xF900), (0xF_0000, 0xF_FFFE), (0x10_0000, 0x10_FFFE)];
/// Bytes below 0x80 are ASCII, always valid: only the upper half needs a character.
const BLOCK: u32 = 128;

/// How a module's text stands for its bytes: as they are, or with one private-use block standing for
/// the bytes 0x80..=0xFF that were not UTF-8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RawBytes {
    /// The block's first code point (standing for byte 0x80).
    base: Option<u32>,
}

/// Every private-use block occurs in the input, so none can stand for its raw bytes.
#[derive(Debug, PartialEq, Eq)]
pub struct NoFreeBlock {
    /// The offset of the first byte that is not UTF-8.
    pub first_invalid: usize,
}

/// The text of `bytes` and how to write it back. Valid UTF-8 is taken without a copy.
pub fn decode(bytes: Vec<u8>) -> Result<(String, RawBytes), NoFreeBlock> {
    let bytes = match String::from_utf8(bytes) {
        Ok(s) => return Ok((s, RawBytes::default())),
        Err(e) => e.into_bytes(),
    };
    let first_invalid = bytes.utf8_chunks().next().map_or(0, |c| c.valid().len());
    let base = free_block(&bytes).ok_or(NoFreeBlock { first_invalid })?;
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 8);
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        for &b in chunk.invalid() {
            text.push(stand_in(base, b));
        }
    }
    Ok((text, RawBytes { base: Some(base) }))
}

/// The first private-use block none of whose characters the valid parts of `bytes` hold.
fn free_block(bytes: &[u8]) -> Option<u32> {
    let mut used = rustc_hash::FxHashSet::default();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            let c = u32::from(c);
            if PRIVATE_USE.iter().any(|&(lo, hi)| (lo..hi).contains(&c)) {
                used.insert(c / BLOCK);
            }
        }
    }
    PRIVATE_USE
        .iter()
        .flat_map(|&(lo, hi)| (lo / BLOCK..hi / BLOCK).map(|b| b * BLOCK))
        .find(|b| !used.contains(&(b / BLOCK)))
}

/// The character standing for byte `b` (0x80 or above) in the block at `base`.
fn stand_in(base: u32, b: u8) -> char {
    // Every block lies inside a private-use range, which holds only valid scalar values.
    char::from_u32(base + u32::from(b & 0x7F)).unwrap_or(char::REPLACEMENT_CHARACTER)
}

impl RawBytes {
    /// True when the text is the input's bytes as they are.
    pub fn is_identity(&self) -> bool {
        self.base.is_none()
    }

    /// The byte a character stands for, if it is one of this block's.
    fn byte_of(&self, c: char) -> Option<u8> {
        let base = self.base?;
        let k = u32::from(c).checked_sub(base).filter(|&k| k < BLOCK)?;
        Some(0x80 | k as u8)
    }

    /// `text` as the bytes it stands for.
    pub fn encode<'t>(&self, text: &'t str) -> Cow<'t, [u8]> {
        if self.base.is_none() || !text.chars().any(|c| self.byte_of(c).is_some()) {
            return Cow::Borrowed(text.as_bytes());
        }
        let mut out = Vec::with_capacity(text.len());
        let mut buf = [0u8; 4];
        for c in text.chars() {
            match self.byte_of(c) {
                Some(b) => out.push(b),
                None => out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes()),
            }
        }
        Cow::Owned(out)
    }

    /// `text` for people (a diagnostic, a report): each raw byte shown as U+FFFD, as a terminal shows
    /// a byte that is not UTF-8.
    pub fn display<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if self.base.is_none() || !text.chars().any(|c| self.byte_of(c).is_some()) {
            return Cow::Borrowed(text);
        }
        Cow::Owned(
            text.chars().map(|c| if self.byte_of(c).is_some() { char::REPLACEMENT_CHARACTER } else { c }).collect(),
        )
    }

    /// Runs `emit` with a writer that turns this mapping's characters back into their bytes on the way
    /// to `w`. `emit` writes text: whole UTF-8 sequences, possibly split across writes.
    pub fn write_through(
        &self,
        w: &mut dyn Write,
        emit: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        if self.base.is_none() {
            return emit(w);
        }
        let mut raw = Writer { raw: *self, w, pending: Vec::new() };
        emit(&mut raw)?;
        // A sequence left incomplete was no character of ours: it goes out as it came.
        raw.w.write_all(&raw.pending)
    }
}

/// Writes text with the stand-in characters as their bytes.
struct Writer<'w> {
    raw: RawBytes,
    w: &'w mut dyn Write,
    /// The start of a UTF-8 sequence the last write ended inside.
    pending: Vec<u8>,
}

impl Write for Writer<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let joined;
        let bytes = if self.pending.is_empty() {
            buf
        } else {
            joined = [std::mem::take(&mut self.pending).as_slice(), buf].concat();
            joined.as_slice()
        };
        let mut done = 0;
        for chunk in bytes.utf8_chunks() {
            let valid = chunk.valid();
            let at = done;
            done += valid.len();
            self.w.write_all(&self.raw.encode(valid))?;
            let invalid = chunk.invalid();
            if invalid.is_empty() {
                continue;
            }
            // An incomplete sequence at the very end may complete with the next write.
            if at + valid.len() + invalid.len() == bytes.len() && bytes.len() - done < 4 {
                self.pending.extend_from_slice(invalid);
            } else {
                self.w.write_all(invalid)?;
            }
            done += invalid.len();
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through(raw: RawBytes, pieces: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        raw.write_through(&mut out, |w| pieces.iter().try_for_each(|p| w.write_all(p))).expect("written");
        out
    }

    #[test]
    fn utf8_is_taken_and_written_as_it_is() {
        let (text, raw) = decode("; é \u{E000}\n".as_bytes().to_vec()).expect("decoded");
        assert!(raw.is_identity());
        assert_eq!(text, "; é \u{E000}\n");
        assert_eq!(through(raw, &[text.as_bytes()]), text.as_bytes());
    }

    #[test]
    fn raw_bytes_round_trip_one_character_each() {
        let input = b"; \xff\xfe comment\n@s = constant [3 x i8] c\"\x80\xc3\xa9\xe2\x82\"\n".to_vec();
        let (text, raw) = decode(input.clone()).expect("decoded");
        assert!(!raw.is_identity());
        // One character per raw byte (the é stays é; the truncated 3-byte sequence is two bytes).
        assert_eq!(text.chars().count(), String::from_utf8_lossy(&input).chars().count() + 1);
        let line = text.lines().next().expect("a line");
        assert_eq!(line.chars().count(), 12, "`; ` + 2 raw bytes + ` comment`");
        assert_eq!(raw.encode(&text).as_ref(), input.as_slice());
        assert_eq!(through(raw, &[text.as_bytes()]), input);
        assert_eq!(raw.display(line), "; \u{FFFD}\u{FFFD} comment");
    }

    #[test]
    fn the_block_avoids_private_use_characters_the_input_has() {
        // The input holds a character of the first block and one of the second.
        let mut input = "\u{E005}\u{E0A0}".as_bytes().to_vec();
        input.push(0xFF);
        let (text, raw) = decode(input.clone()).expect("decoded");
        assert_eq!(text.chars().last(), Some('\u{E17F}'), "third block, last character");
        assert_eq!(raw.encode(&text).as_ref(), input.as_slice());
        // Characters of other blocks are text, not bytes.
        assert_eq!(raw.display(&text), "\u{E005}\u{E0A0}\u{FFFD}");
    }

    #[test]
    fn a_character_split_across_writes_is_still_one_byte() {
        let (text, raw) = decode(b"a\xffb".to_vec()).expect("decoded");
        let b = text.as_bytes();
        for cut in 0..=b.len() {
            assert_eq!(through(raw, &[&b[..cut], &b[cut..]]), b"a\xffb", "cut at {cut}");
        }
    }

    #[test]
    fn an_input_using_every_block_is_refused() {
        let mut input: Vec<u8> = PRIVATE_USE
            .iter()
            .flat_map(|&(lo, hi)| (lo / BLOCK..hi / BLOCK).map(|b| b * BLOCK))
            .filter_map(char::from_u32)
            .collect::<String>()
            .into_bytes();
        let at = input.len();
        input.push(0x80);
        assert_eq!(decode(input).map(|_| ()), Err(NoFreeBlock { first_invalid: at }));
    }
}
