//! Source files, spans and offset maps shared by every stage.
//!
//! Every position a user ever sees is a [`Span`] into one of the *original* files in
//! [`SourceFiles`]. Stages that produce new text (the preprocessor, lowering) also produce an
//! [`OffsetMap`] from offsets in their output back to offsets in their input, so a position in
//! text the user never wrote (for example a DXC error in lowered HLSL) can be walked back to the
//! file, line and column the user did write.

use std::path::{Path, PathBuf};

/// Index of a file in [`SourceFiles`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct FileId(pub u32);

/// One file as it was read from disk.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as the user (or the include resolver) named it.
    pub path: PathBuf,
    /// The full text (lossy UTF-8 if the file was not valid UTF-8).
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    /// 1-based line and 1-based column (in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let offset = offset.min(self.text.len() as u32);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        // A byte-order mark is invisible in an editor: it is no column.
        let start = if start == 0 && self.text.starts_with('\u{feff}') {
            3.min(end)
        } else {
            start
        };
        let col = self.text[start..end].chars().count() as u32 + 1;
        (line as u32 + 1, col)
    }

    /// Byte offset of the start of a 1-based line (clamped to the file).
    pub fn line_start(&self, line: u32) -> u32 {
        let idx = (line.max(1) - 1) as usize;
        self.line_starts
            .get(idx)
            .copied()
            .unwrap_or(self.text.len() as u32)
    }
}

/// All files read while compiling one effect. The first file added is the effect itself.
#[derive(Clone, Debug, Default)]
pub struct SourceFiles {
    files: Vec<SourceFile>,
}

impl SourceFiles {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file and returns its id. The same path may be added twice (it is not deduplicated),
    /// which keeps ids stable in read order.
    pub fn add(&mut self, path: impl Into<PathBuf>, text: impl Into<String>) -> FileId {
        let text = text.into();
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        self.files.push(SourceFile {
            path: path.into(),
            text,
            line_starts,
        });
        FileId(self.files.len() as u32 - 1)
    }

    /// The file with this id.
    ///
    /// # Panics
    /// If the id did not come from this set (a bug, never user input).
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// Finds an already added file by path.
    pub fn find(&self, path: &Path) -> Option<FileId> {
        self.files
            .iter()
            .position(|f| f.path == path)
            .map(|i| FileId(i as u32))
    }

    /// Iterates over `(id, file)` in the order the files were read.
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when no file was added.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// A byte range in one original file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Span {
    /// The file.
    pub file: FileId,
    /// Start byte offset (inclusive).
    pub start: u32,
    /// End byte offset (exclusive); equal to `start` for a point.
    pub end: u32,
}

impl Span {
    /// A span covering `start..end` of `file`.
    pub fn new(file: FileId, start: u32, end: u32) -> Self {
        Span {
            file,
            start,
            end: end.max(start),
        }
    }
}

/// Where a byte of derived text came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// First output byte covered by this segment.
    pub out_start: u32,
    /// One past the last output byte covered.
    pub out_end: u32,
    /// Input offset the first output byte maps to.
    pub in_start: u32,
    /// When true, output byte `out_start + k` maps to input byte `in_start + k` (copied text).
    /// When false, every output byte maps to `in_start` (synthesized text such as a macro
    /// expansion, which maps to the macro's use site).
    pub verbatim: bool,
}

/// Maps offsets in an output text to offsets in the text it was derived from.
///
/// For the preprocessor the "input" is a file of [`SourceFiles`], so it pairs each segment with
/// a [`FileId`] (see [`SourceMap`]); for later text-to-text stages the input is the previous
/// stage's output.
#[derive(Clone, Debug, Default)]
pub struct OffsetMap {
    segments: Vec<Segment>,
}

impl OffsetMap {
    /// Maps an output offset to an input offset. Offsets past the end map to the end of the last
    /// segment; an empty map is the identity.
    pub fn map(&self, out: u32) -> u32 {
        if self.segments.is_empty() {
            return out;
        }
        let i = match self.segments.binary_search_by(|s| {
            if out < s.out_start {
                std::cmp::Ordering::Greater
            } else if out >= s.out_end {
                std::cmp::Ordering::Less
            } else {
                std::cmp::Ordering::Equal
            }
        }) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let s = self.segments[i];
        if s.verbatim {
            let k = out.saturating_sub(s.out_start).min(s.out_end - s.out_start);
            s.in_start + k
        } else {
            s.in_start
        }
    }

    /// The raw segments, in output order.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    fn push(&mut self, seg: Segment) {
        if seg.out_end == seg.out_start {
            return;
        }
        if let Some(last) = self.segments.last_mut() {
            if last.verbatim
                && seg.verbatim
                && last.out_end == seg.out_start
                && last.in_start + (last.out_end - last.out_start) == seg.in_start
            {
                last.out_end = seg.out_end;
                return;
            }
        }
        self.segments.push(seg);
    }
}

/// Builds derived text together with its [`OffsetMap`].
///
/// ```
/// use shadowdusk_compiler::source::TextBuilder;
/// let src = "float4 main() : COLOR { }";
/// let mut b = TextBuilder::new();
/// b.copy(src, 0..16);
/// b.insert("SV_Target", 16);
/// b.copy(src, 21..src.len());
/// let (text, map) = b.finish();
/// assert_eq!(text, "float4 main() : SV_Target { }");
/// assert_eq!(map.map(27), 23); // the `{` maps back to its input position
/// ```
#[derive(Debug, Default)]
pub struct TextBuilder {
    out: String,
    map: OffsetMap,
}

impl TextBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `src[range]` verbatim; each byte maps to its input position.
    pub fn copy(&mut self, src: &str, range: std::ops::Range<usize>) {
        let start = self.out.len() as u32;
        self.out.push_str(&src[range.clone()]);
        self.map.push(Segment {
            out_start: start,
            out_end: self.out.len() as u32,
            in_start: range.start as u32,
            verbatim: true,
        });
    }

    /// Appends synthesized text; every byte maps to input offset `at`.
    pub fn insert(&mut self, text: &str, at: usize) {
        let start = self.out.len() as u32;
        self.out.push_str(text);
        self.map.push(Segment {
            out_start: start,
            out_end: self.out.len() as u32,
            in_start: at as u32,
            verbatim: false,
        });
    }

    /// The text built so far.
    pub fn as_str(&self) -> &str {
        &self.out
    }

    /// Finishes, returning the text and its map.
    pub fn finish(self) -> (String, OffsetMap) {
        (self.out, self.map)
    }
}

/// Maps offsets of preprocessed text to positions in original files.
///
/// Each entry covers a run of output bytes that came from one file: verbatim runs map byte for
/// byte, macro expansions map to the macro's use site.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    entries: Vec<(Segment, FileId)>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records that output `out_start..out_end` came from `file` starting at `in_start`.
    /// Entries must be pushed in increasing output order.
    pub fn push(
        &mut self,
        out_start: u32,
        out_end: u32,
        file: FileId,
        in_start: u32,
        verbatim: bool,
    ) {
        if out_end <= out_start {
            return;
        }
        if let Some((last, last_file)) = self.entries.last_mut() {
            if *last_file == file
                && last.verbatim
                && verbatim
                && last.out_end == out_start
                && last.in_start + (last.out_end - last.out_start) == in_start
            {
                last.out_end = out_end;
                return;
            }
        }
        self.entries.push((
            Segment {
                out_start,
                out_end,
                in_start,
                verbatim,
            },
            file,
        ));
    }

    /// The original file and byte offset of an output offset, if the map covers anything.
    pub fn lookup(&self, out: u32) -> Option<(FileId, u32)> {
        if self.entries.is_empty() {
            return None;
        }
        let i = match self.entries.binary_search_by(|(s, _)| {
            if out < s.out_start {
                std::cmp::Ordering::Greater
            } else if out >= s.out_end {
                std::cmp::Ordering::Less
            } else {
                std::cmp::Ordering::Equal
            }
        }) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let (s, file) = self.entries[i];
        let off = if s.verbatim {
            s.in_start + out.saturating_sub(s.out_start).min(s.out_end - s.out_start)
        } else {
            s.in_start
        };
        Some((file, off))
    }

    /// The original span of an output range (its start and end mapped separately; if they land
    /// in different files the span collapses to the start).
    pub fn span(&self, out: std::ops::Range<usize>) -> Option<Span> {
        let (f, s) = self.lookup(out.start as u32)?;
        let end = if out.end > out.start {
            match self.lookup(out.end as u32 - 1) {
                Some((f2, e)) if f2 == f && e >= s => e + 1,
                _ => s,
            }
        } else {
            s
        };
        Some(Span::new(f, s, end))
    }

    /// Number of entries (for tests and benchmarks).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing is mapped.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let mut files = SourceFiles::new();
        let id = files.add("a.fx", "ab\ncd\n");
        assert_eq!(files.get(id).line_col(0), (1, 1));
        assert_eq!(files.get(id).line_col(4), (2, 2));
        assert_eq!(files.get(id).line_start(2), 3);
    }

    #[test]
    fn source_map_maps_verbatim_and_expansions() {
        let mut m = SourceMap::new();
        m.push(0, 10, FileId(0), 100, true);
        m.push(10, 20, FileId(0), 50, false);
        m.push(20, 30, FileId(1), 0, true);
        assert_eq!(m.lookup(3), Some((FileId(0), 103)));
        assert_eq!(m.lookup(15), Some((FileId(0), 50)));
        assert_eq!(m.lookup(25), Some((FileId(1), 5)));
    }
}
