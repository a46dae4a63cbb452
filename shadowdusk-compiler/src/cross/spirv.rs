//! SPIR-V words as instructions, for the rewrites that run before SPIRV-Cross reads a module
//! (`integers`, `widen`, `lanes`, `d3d_math`): each splits the module, edits instructions, and joins it again.

/// One instruction's words (the first holds word count and opcode).
#[derive(Clone)]
pub(crate) struct Inst(pub(crate) Vec<u32>);

impl Inst {
    pub(crate) fn new(op: u16, operands: &[u32]) -> Inst {
        let mut w = vec![((operands.len() as u32 + 1) << 16) | u32::from(op)];
        w.extend_from_slice(operands);
        Inst(w)
    }
    pub(crate) fn op(&self) -> u16 {
        (self.0[0] & 0xffff) as u16
    }
    pub(crate) fn set_op(&mut self, op: u16) {
        self.0[0] = (self.0[0] & 0xffff_0000) | u32::from(op);
    }
    pub(crate) fn operand(&self, i: usize) -> Option<u32> {
        self.0.get(i + 1).copied()
    }
}

/// The instructions after the five-word header; `None` for a module too short or with an
/// instruction whose word count does not fit (the rewrites then leave the module alone, and
/// SPIRV-Cross reports it).
pub(crate) fn instructions(words: &[u32]) -> Option<Vec<Inst>> {
    if words.len() < 5 {
        return None;
    }
    let mut insts = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if count == 0 || i + count > words.len() {
            return None;
        }
        insts.push(Inst(words[i..i + count].to_vec()));
        i += count;
    }
    Some(insts)
}

/// `words`' header with the id bound `bound`, then `insts`.
pub(crate) fn module(words: &[u32], bound: u32, insts: impl IntoIterator<Item = Inst>) -> Vec<u32> {
    let mut out = words[..5].to_vec();
    out[3] = bound;
    for x in insts {
        out.extend(x.0);
    }
    out
}

/// A SPIR-V literal string: UTF-8, nul-terminated, padded to whole words.
pub(crate) fn literal_string(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
