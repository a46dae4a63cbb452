//! Integer `/` and `%` as fxc computes them (rounded toward zero, the remainder with the
//! dividend's sign), exact over the whole range fxc's float registers hold (|x| < 2^24),
//! rendered on headless OpenGL (Mesa llvmpipe) and compared with Rust's `i32` maths.
//!
//! Each column of the picture is one case `(a, b)` (operands from a uniform array, so nothing
//! is folded at compile time), each band of rows one result: `a / b`, `a % b`, and the same two
//! through `int2` vectors. A pixel carries the result's magnitude in its three colour bytes and
//! its sign in alpha, written with float maths by powers of two, so any error is a wrong byte.
//! The cases straddle 2^23 (where `a + 0.5` stops being a float: `8388609 / 2` once gave
//! 4194305), reach 2^24 - 1, and cross every sign boundary.

use shadowdusk::gl::DynEffect;
use shadowdusk_compiler::pipeline::{compile_source, Options};
use shadowdusk_tests::gl_state::reset_states;
use shadowdusk_tests::{draw_sprite, Headless, Orientation, Sprite};

const SIZE: u32 = 64;
/// Bands of rows, one result each.
const BANDS: u32 = 4;

const EFFECT: &str = "\
float4 Cases[32];

float4 Encode(int v)
{
    float m = abs((float)v);
    float hi = floor(m * (1.0 / 65536.0));
    float mid = floor((m - hi * 65536.0) * (1.0 / 256.0));
    float lo = m - hi * 65536.0 - mid * 256.0;
    return float4(lo, mid, hi, v < 0 ? 255.0 : 128.0) * (1.0 / 255.0);
}

float4 PS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float column = floor(uv.x * 64.0);
    float pair = floor(column * 0.5);
    float4 c = Cases[(int)pair];
    bool second = column - pair * 2.0 > 0.5;
    int a = (int)(second ? c.z : c.x);
    int b = (int)(second ? c.w : c.y);
    int2 q = int2(a + 1, a) / int2(b, b);
    int2 r = int2(a + 1, a) % int2(b, b);
    float band = floor(uv.y * 4.0);
    if (band < 0.5)
        return Encode(a / b);
    if (band < 1.5)
        return Encode(a % b);
    if (band < 2.5)
        return Encode(q.y);
    return Encode(r.y);
}

technique Divide { pass P0 { PixelShader = compile ps_3_0 PS(); } }
";

/// 64 cases: around 2^23 with every sign combination, up to 2^24 - 1, and the sign boundaries.
fn cases() -> Vec<(i32, i32)> {
    let big = 1 << 23;
    let mut out = Vec::new();
    for k in [1, 3, 1_000_001, big - 1] {
        for b in [2, 3, 7, -2, -3, -7] {
            out.push((big + k, b));
            out.push((-(big + k), b));
        }
    }
    out.extend([
        (0, 3),
        (0, -3),
        (1, 3),
        (-1, 3),
        (2, 3),
        (-2, 3),
        (3, 3),
        (-3, 3),
        (2, -3),
        (-2, -3),
        (3, -3),
        (-3, -3),
        (big, 1),
        (-big, -1),
        ((1 << 24) - 1, 1),
        (-((1 << 24) - 1), 7),
    ]);
    assert_eq!(out.len(), SIZE as usize);
    out
}

/// The pixel `Encode` writes for `v`.
fn encode(v: i32) -> [u8; 4] {
    let m = v.unsigned_abs();
    [
        (m & 0xff) as u8,
        ((m >> 8) & 0xff) as u8,
        ((m >> 16) & 0xff) as u8,
        if v < 0 { 255 } else { 128 },
    ]
}

#[test]
fn integer_division_and_remainder_are_exact_below_2_pow_24() {
    let test = "integer_division_and_remainder_are_exact_below_2_pow_24";
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_tests::skip(test, "DXC is not available (run `cargo xtask setup`)");
        return;
    }
    let Some(h) = Headless::or_skip(test, SIZE, SIZE) else {
        return;
    };
    let path = std::env::temp_dir().join("shadowdusk-integer-division.fx");
    let compiled = compile_source(&path, EFFECT, &Options::default())
        .unwrap_or_else(|e| panic!("does not compile:\n{}", e.render(false)));
    let mut effect = DynEffect::new(h.ctx(), &compiled.bytes).expect("loads");
    let cases = cases();
    let values: Vec<f32> = cases
        .iter()
        .flat_map(|&(a, b)| [a as f32, b as f32])
        .collect();
    // Every operand is a float exactly (|x| < 2^24), as in fxc's registers.
    assert!(cases
        .iter()
        .all(|&(a, b)| a as f32 as i32 == a && b as f32 as i32 == b));
    let p = effect.parameter("Cases").expect("Cases");
    effect.set_values(p, &values).expect("set Cases");
    let t = effect.technique("Divide").expect("technique");
    let pass = effect.passes(t).next().expect("a pass");
    h.clear([0, 0, 0, 0]);
    reset_states(h.ctx());
    let o = Orientation::Backbuffer;
    let applied = effect.apply(pass, &h.target(o)).expect("apply");
    draw_sprite(
        h.ctx(),
        &applied,
        &Sprite::new(0.0, 0.0, SIZE as f32, SIZE as f32),
    )
    .expect("draw");
    let image = h.read_rgba(o);

    let mut wrong = Vec::new();
    for (x, &(a, b)) in cases.iter().enumerate() {
        let results = [
            ("a / b", a / b),
            ("a % b", a % b),
            ("int2 a / b", a / b),
            ("int2 a % b", a % b),
        ];
        for (band, (what, want)) in results.into_iter().enumerate() {
            let rows = SIZE / BANDS;
            for y in band as u32 * rows..(band as u32 + 1) * rows {
                let got = image.get_pixel(x as u32, y).0;
                if got != encode(want) {
                    let m = |p: [u8; 4]| {
                        let v = i64::from(p[0]) | i64::from(p[1]) << 8 | i64::from(p[2]) << 16;
                        if p[3] == 255 {
                            -v
                        } else {
                            v
                        }
                    };
                    wrong.push(format!(
                        "{what} with a = {a}, b = {b}: {want}, rendered {}",
                        m(got)
                    ));
                    break;
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} results differ from Rust's i32 maths:\n{}",
        wrong.len(),
        cases.len() * BANDS as usize,
        wrong.join("\n")
    );
}
