//! The writer refuses everything mgfx-format.md §13 forbids, naming what and where.

use super::fixtures::{everything, texture, tint_shader, value};
use crate::*;

fn refused(effect: &Effect, needle: &str) {
    match write(effect) {
        Ok(_) => panic!("expected a refusal mentioning {needle:?}"),
        Err(WriteError(msg)) => assert!(msg.contains(needle), "{msg:?} lacks {needle:?}"),
    }
}

fn base() -> Effect {
    tint_shader(b"void main() {}")
}

#[test]
fn base_is_valid() {
    assert!(write(&base()).is_ok());
    assert!(write(&everything(10)).is_ok());
}

#[test]
fn refuses_bad_header_and_techniques() {
    let mut e = base();
    e.profile = Profile::Other(80);
    refused(&e, "profile byte 80");
    let mut e = base();
    e.techniques.clear();
    refused(&e, "no technique");
}

#[test]
fn refuses_bad_cbuffers() {
    let mut e = base();
    e.constant_buffers[0].size = 20;
    refused(&e, "not a multiple of 16");
    let mut e = base();
    e.constant_buffers[0].size = 32768;
    refused(&e, "exceeds 32767");
    let mut e = base();
    e.constant_buffers[0].entries[0].parameter = 2;
    refused(&e, "refers to parameter 2");
    let mut e = base();
    e.constant_buffers[0].entries[0].parameter = -1;
    refused(&e, "refers to parameter -1");
    let mut e = base();
    e.constant_buffers[0].entries[0].parameter = 1;
    refused(&e, "never uploads");
    let mut e = base();
    e.constant_buffers[0].entries[0].offset = 4;
    refused(&e, "past the buffer's size 16");
    // Exactly filling the buffer is fine.
    let mut e = base();
    e.parameters[0] = value("TintColor", ParameterClass::Vector, 1, 3);
    e.constant_buffers[0].entries[0].offset = 4;
    assert!(write(&e).is_ok());
}

#[test]
fn refuses_bad_shaders() {
    let mut e = base();
    e.shaders[0].code = "gl_FragColor = vec4(1.0); // é".as_bytes().to_vec();
    refused(&e, "not ASCII");
    // DirectX payloads are binary.
    let mut e = base();
    e.profile = Profile::DirectX11;
    e.shaders[0].code = vec![0x44, 0x58, 0x42, 0x43, 0xFF, 0x00];
    assert!(write(&e).is_ok());
    let mut e = base();
    e.shaders[0].cbuffers = vec![1];
    refused(&e, "refers to constant buffer 1");
    let mut e = base();
    e.shaders[0].cbuffers = vec![0; 17];
    refused(&e, "at most 16");
    let mut e = base();
    let s = e.shaders[0].samplers[0].clone();
    e.shaders[0].samplers = vec![s; 256];
    refused(&e, "256 samplers");
    let mut e = base();
    e.shaders[0].samplers[0].parameter = 0;
    refused(&e, "not a texture");
    let mut e = base();
    e.shaders[0].samplers[0].parameter = 9;
    refused(&e, "refers to parameter 9");
    let mut e = base();
    e.shaders[0].attributes.push(Attribute {
        name: "vs_v0".into(),
        usage: VertexElementUsage::Position,
        index: 0,
        location: 0,
    });
    refused(&e, "pixel shader cannot carry vertex attributes");
}

#[test]
fn refuses_bad_passes() {
    let mut e = base();
    e.techniques[0].passes[0].vertex_shader = 0;
    refused(&e, "points at a Pixel shader");
    let mut e = base();
    e.techniques[0].passes[0].pixel_shader = 1;
    refused(&e, "Pixel shader index 1 is neither -1");
    let mut e = base();
    e.techniques[0].passes[0].pixel_shader = -2;
    refused(&e, "index -2");
    let mut e = base();
    e.techniques[0].passes[0].annotations = -1;
    refused(&e, "negative annotation count");
}

#[test]
fn refuses_bad_parameters() {
    let mut e = base();
    e.parameters[1].name = "TintColor".into();
    refused(&e, "duplicate name");
    // Blank names (array elements) may repeat.
    let mut e = base();
    e.parameters.push(value("", ParameterClass::Scalar, 1, 1));
    e.parameters.push(value(" ", ParameterClass::Scalar, 1, 1));
    e.parameters.push(value(" ", ParameterClass::Scalar, 1, 1));
    assert!(write(&e).is_ok());
    let mut e = base();
    e.parameters[1].ty = ParameterType::String;
    refused(&e, "String parameters");
    let mut e = base();
    e.parameters[0].data = Some(vec![0; 3]);
    refused(&e, "3 data values, but rows*columns = 4");
    let mut e = base();
    e.parameters[0].data = None;
    refused(&e, "needs data");
    let mut e = base();
    e.parameters[1].data = Some(vec![]);
    refused(&e, "carries data");
    let mut e = base();
    let mut arr = value("Arr", ParameterClass::Scalar, 1, 1);
    arr.elements = vec![value("", ParameterClass::Scalar, 1, 1)];
    e.parameters.push(arr);
    refused(&e, "parameter 2 ('Arr'): carries data");
    let mut e = base();
    let mut st = texture("S", ParameterType::Void);
    st.class = ParameterClass::Struct;
    st.members = vec![
        value("a", ParameterClass::Scalar, 1, 1),
        value("a", ParameterClass::Scalar, 1, 1),
    ];
    e.parameters.push(st);
    refused(&e, "parameter 2 ('S') member 1 ('a'): duplicate name");
}

#[test]
fn refuses_nesting_deeper_than_the_reader_accepts() {
    let mut p = value("", ParameterClass::Scalar, 1, 1);
    for _ in 0..MAX_DEPTH {
        let mut parent = p.clone();
        parent.data = None;
        parent.elements = vec![p];
        p = parent;
    }
    p.name = "Deep".into();
    let mut e = base();
    e.parameters.push(p.clone());
    let bytes = write(&e).expect("MAX_DEPTH levels are fine");
    assert_eq!(read(&bytes).map(|r| r.parameters.len()), Ok(3));
    let mut parent = p.clone();
    parent.elements = vec![p];
    let mut e = base();
    e.parameters.push(parent);
    refused(&e, "nested deeper");
}
