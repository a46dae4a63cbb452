//! A SPIR-V module opened for editing: the instructions, with the lookups the wgpu rewrites
//! share (names, types, decorations, result types), new ids, and new declarations placed before
//! the first function so every one precedes its uses.

use std::collections::BTreeMap;

use crate::cross::spirv::{self, Inst};

pub(super) mod op {
    pub const SOURCE_CONTINUED: u16 = 2;
    pub const SOURCE: u16 = 3;
    pub const SOURCE_EXTENSION: u16 = 4;
    pub const NAME: u16 = 5;
    pub const MEMBER_NAME: u16 = 6;
    pub const STRING: u16 = 7;
    pub const LINE: u16 = 8;
    pub const EXTENSION: u16 = 10;
    pub const EXT_INST_IMPORT: u16 = 11;
    pub const EXT_INST: u16 = 12;
    pub const ENTRY_POINT: u16 = 15;
    pub const TYPE_INT: u16 = 21;
    pub const TYPE_FLOAT: u16 = 22;
    pub const TYPE_VECTOR: u16 = 23;
    pub const TYPE_MATRIX: u16 = 24;
    pub const TYPE_IMAGE: u16 = 25;
    pub const TYPE_SAMPLER: u16 = 26;
    pub const TYPE_ARRAY: u16 = 28;
    pub const TYPE_STRUCT: u16 = 30;
    pub const TYPE_POINTER: u16 = 32;
    pub const CONSTANT: u16 = 43;
    pub const CONSTANT_NULL: u16 = 46;
    pub const FUNCTION: u16 = 54;
    pub const FUNCTION_CALL: u16 = 57;
    pub const VARIABLE: u16 = 59;
    pub const LOAD: u16 = 61;
    pub const STORE: u16 = 62;
    pub const COPY_MEMORY: u16 = 63;
    pub const ACCESS_CHAIN: u16 = 65;
    pub const IN_BOUNDS_ACCESS_CHAIN: u16 = 66;
    pub const PTR_ACCESS_CHAIN: u16 = 67;
    pub const DECORATE: u16 = 71;
    pub const MEMBER_DECORATE: u16 = 72;
    pub const VECTOR_SHUFFLE: u16 = 79;
    pub const COMPOSITE_CONSTRUCT: u16 = 80;
    pub const COMPOSITE_EXTRACT: u16 = 81;
    pub const SAMPLED_IMAGE: u16 = 86;
    pub const IADD: u16 = 128;
    pub const IMUL: u16 = 132;
    pub const BITCAST: u16 = 124;
    pub const NO_LINE: u16 = 317;
    pub const MODULE_PROCESSED: u16 = 330;
    pub const DECORATE_STRING: u16 = 5632;
    pub const MEMBER_DECORATE_STRING: u16 = 5633;
}

pub(super) mod deco {
    pub const BLOCK: u32 = 2;
    pub const ROW_MAJOR: u32 = 4;
    pub const ARRAY_STRIDE: u32 = 6;
    pub const BUILTIN: u32 = 11;
    pub const FLAT: u32 = 14;
    pub const LOCATION: u32 = 30;
    pub const BINDING: u32 = 33;
    pub const DESCRIPTOR_SET: u32 = 34;
    pub const OFFSET: u32 = 35;
}

pub(super) mod storage {
    pub const UNIFORM_CONSTANT: u32 = 0;
    pub const INPUT: u32 = 1;
    pub const UNIFORM: u32 = 2;
    pub const OUTPUT: u32 = 3;
    pub const PRIVATE: u32 = 6;
}

/// BuiltIn values the rewrites look for.
pub(super) mod builtin {
    pub const POINT_SIZE: u32 = 1;
    pub const CLIP_DISTANCE: u32 = 3;
    pub const CULL_DISTANCE: u32 = 4;
}

pub(super) struct Spv {
    header: Vec<u32>,
    pub(super) insts: Vec<Inst>,
    pub(super) bound: u32,
    /// Declarations made by the rewrites, placed before the first function.
    new_globals: Vec<Inst>,
    /// Memo of the types and constants made, so each is declared once.
    made: BTreeMap<Vec<u32>, u32>,
}

impl Spv {
    pub(super) fn open(words: &[u32]) -> Option<Spv> {
        let insts = spirv::instructions(words)?;
        Some(Spv {
            header: words[..5].to_vec(),
            insts,
            bound: words[3],
            new_globals: Vec::new(),
            made: BTreeMap::new(),
        })
    }

    pub(super) fn close(mut self) -> Vec<u32> {
        let at = self
            .insts
            .iter()
            .position(|i| i.op() == op::FUNCTION)
            .unwrap_or(self.insts.len());
        let globals = std::mem::take(&mut self.new_globals);
        self.insts.splice(at..at, globals);
        spirv::module(&self.header, self.bound, self.insts)
    }

    pub(super) fn id(&mut self) -> u32 {
        let id = self.bound;
        self.bound += 1;
        id
    }

    /// The result id of instructions with one (by opcode: those here and types).
    pub(super) fn def(&self, id: u32) -> Option<&Inst> {
        self.insts
            .iter()
            .chain(&self.new_globals)
            .find(|i| result_id(i) == Some(id))
    }

    pub(super) fn name(&self, id: u32) -> Option<String> {
        self.insts
            .iter()
            .find(|i| i.op() == op::NAME && i.operand(0) == Some(id))
            .map(|i| string(&i.0[2..]))
    }

    /// Gives `id` the debug name `name` (what naga names it in WGSL, where it can).
    pub(super) fn rename(&mut self, id: u32, name: &str) {
        self.insts
            .retain(|i| !(i.op() == op::NAME && i.operand(0) == Some(id)));
        let mut ops = vec![id];
        ops.extend(string_words(name));
        let at = self.names_at();
        self.insts.insert(at, Inst::new(op::NAME, &ops));
    }

    pub(super) fn member_name(&self, ty: u32, member: u32) -> Option<String> {
        self.insts
            .iter()
            .find(|i| {
                i.op() == op::MEMBER_NAME
                    && i.operand(0) == Some(ty)
                    && i.operand(1) == Some(member)
            })
            .map(|i| string(&i.0[3..]))
    }

    pub(super) fn decoration(&self, id: u32, d: u32) -> Option<Vec<u32>> {
        self.insts
            .iter()
            .find(|i| i.op() == op::DECORATE && i.operand(0) == Some(id) && i.operand(1) == Some(d))
            .map(|i| i.0[3..].to_vec())
    }

    pub(super) fn member_decoration(&self, ty: u32, member: u32, d: u32) -> Option<Vec<u32>> {
        self.insts
            .iter()
            .find(|i| {
                i.op() == op::MEMBER_DECORATE
                    && i.operand(0) == Some(ty)
                    && i.operand(1) == Some(member)
                    && i.operand(2) == Some(d)
            })
            .map(|i| i.0[4..].to_vec())
    }

    /// Removes the decorations `ds` of `id` (the rewrites then set their own).
    pub(super) fn undecorate(&mut self, id: u32, ds: &[u32]) {
        self.insts.retain(|i| {
            !(i.op() == op::DECORATE
                && i.operand(0) == Some(id)
                && i.operand(1).is_some_and(|d| ds.contains(&d)))
        });
    }

    pub(super) fn decorate(&mut self, id: u32, d: u32, values: &[u32]) {
        let mut ops = vec![id, d];
        ops.extend_from_slice(values);
        let at = self.annotations_at();
        self.insts.insert(at, Inst::new(op::DECORATE, &ops));
    }

    /// Where decorations go: with the others, else right before the first type.
    pub(super) fn annotations_at(&self) -> usize {
        self.insts
            .iter()
            .position(|i| matches!(i.op(), op::DECORATE | op::MEMBER_DECORATE | 19..=39))
            .unwrap_or(self.insts.len())
    }

    /// Where debug names go: with the others, else where decorations go.
    pub(super) fn names_at(&self) -> usize {
        self.insts
            .iter()
            .position(|i| matches!(i.op(), op::NAME | op::MEMBER_NAME))
            .unwrap_or_else(|| self.annotations_at())
    }

    fn declare(&mut self, op_code: u16, operands_after_result: &[u32]) -> u32 {
        let mut key = vec![u32::from(op_code)];
        key.extend_from_slice(operands_after_result);
        if let Some(&id) = self.made.get(&key) {
            return id;
        }
        let id = self.id();
        // Types start with their result id; constants with their type, then the result id.
        let ops: Vec<u32> = if op_code == op::CONSTANT || op_code == op::CONSTANT_NULL {
            let mut o = vec![operands_after_result[0], id];
            o.extend_from_slice(&operands_after_result[1..]);
            o
        } else {
            let mut o = vec![id];
            o.extend_from_slice(operands_after_result);
            o
        };
        self.new_globals.push(Inst::new(op_code, &ops));
        self.made.insert(key, id);
        id
    }

    /// A type (`op` with its operands after the result id): an existing identical declaration
    /// when there is one, as SPIR-V allows one per non-aggregate type.
    pub(super) fn ty(&mut self, op_code: u16, operands: &[u32]) -> u32 {
        if op_code != op::TYPE_STRUCT && op_code != op::TYPE_ARRAY {
            if let Some(i) = self
                .insts
                .iter()
                .find(|i| i.op() == op_code && i.0[2..] == *operands)
            {
                return i.0[1];
            }
        }
        self.declare(op_code, operands)
    }

    pub(super) fn float(&mut self) -> u32 {
        self.ty(op::TYPE_FLOAT, &[32])
    }
    pub(super) fn vec4(&mut self) -> u32 {
        let f = self.float();
        self.ty(op::TYPE_VECTOR, &[f, 4])
    }
    pub(super) fn int(&mut self) -> u32 {
        self.ty(op::TYPE_INT, &[32, 1])
    }
    pub(super) fn pointer(&mut self, storage: u32, pointee: u32) -> u32 {
        self.ty(op::TYPE_POINTER, &[storage, pointee])
    }
    /// A new array type (its own id: decorations differ between arrays of one shape).
    pub(super) fn array(&mut self, elem: u32, len: u32) -> u32 {
        let n = self.int_const(len as i32);
        let id = self.id();
        self.new_globals
            .push(Inst::new(op::TYPE_ARRAY, &[id, elem, n]));
        id
    }
    pub(super) fn new_struct(&mut self, members: &[u32]) -> u32 {
        let id = self.id();
        let mut ops = vec![id];
        ops.extend_from_slice(members);
        self.new_globals.push(Inst::new(op::TYPE_STRUCT, &ops));
        id
    }
    pub(super) fn int_const(&mut self, v: i32) -> u32 {
        let int = self.int();
        self.declare(op::CONSTANT, &[int, v as u32])
    }
    /// `OpConstantNull` of type `ty` (zero).
    pub(super) fn null(&mut self, ty: u32) -> u32 {
        self.declare(op::CONSTANT_NULL, &[ty])
    }
    pub(super) fn float_const(&mut self, v: f32) -> u32 {
        let f = self.float();
        self.declare(op::CONSTANT, &[f, v.to_bits()])
    }
    pub(super) fn global(&mut self, inst: Inst) {
        self.new_globals.push(inst);
    }

    /// The value of an `OpConstant` of a 32-bit integer type.
    pub(super) fn const_value(&self, id: u32) -> Option<u32> {
        let i = self.def(id)?;
        (i.op() == op::CONSTANT && i.0.len() == 4).then(|| i.0[3])
    }

    /// The type id of the value `id`.
    pub(super) fn type_of(&self, id: u32) -> Option<u32> {
        let i = self.def(id)?;
        has_result_type(i.op()).then(|| i.0[1])
    }
}

/// `s` as a literal string's words (NUL-terminated, padded to a word).
pub(super) use crate::cross::spirv::literal_string as string_words;

/// A literal string's text (NUL-terminated, little-endian bytes in words).
pub(super) fn string(words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// Whether instructions of this opcode have a result type before their result id: every
/// non-type, non-declaration instruction with a result, which is what the rewrites look up.
fn has_result_type(op_code: u16) -> bool {
    !matches!(
        op_code,
        19..=39 | op::EXT_INST_IMPORT | op::STRING | op::NAME | op::MEMBER_NAME
    ) && !matches!(
        op_code,
        op::DECORATE | op::MEMBER_DECORATE | op::ENTRY_POINT | op::LINE | op::NO_LINE | 248
    )
}

/// The result id of `i`, for the opcodes the rewrites ask about.
pub(super) fn result_id(i: &Inst) -> Option<u32> {
    let code = i.op();
    match code {
        19..=39 | op::EXT_INST_IMPORT | op::STRING | 248 => i.operand(0),
        op::CONSTANT
        | 41
        | 42
        | 44
        | op::CONSTANT_NULL
        | op::VARIABLE
        | op::LOAD
        | op::ACCESS_CHAIN
        | op::IN_BOUNDS_ACCESS_CHAIN
        | op::FUNCTION
        | 55
        | op::FUNCTION_CALL
        | op::SAMPLED_IMAGE
        | op::VECTOR_SHUFFLE
        | op::COMPOSITE_CONSTRUCT
        | op::COMPOSITE_EXTRACT
        | op::EXT_INST
        | op::BITCAST
        | op::IADD
        | op::IMUL
        | 52 => i.operand(1),
        _ => None,
    }
}
