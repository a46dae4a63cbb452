//! Hostile input: how compile time grows with the size of input no effect is made of (junk
//! bytes, unknown characters, NULs, deep nesting, exploding macros) and with a large valid
//! effect. The compiler must stay linear: the figure that matters is the growth of the time per
//! doubling of the input (`t(2n) / 2t(n)`, at most 1.3).
//! Printed, never asserted.

use std::time::{Duration, Instant};

use shadowdusk_compiler::pipeline::{compile_source, Options};

const MIB: usize = 1 << 20;

/// Makes an input of about the given size.
type Maker = fn(usize) -> String;

fn junk(n: usize) -> String {
    // Every byte value, as one UTF-8-safe text (bytes ≥ 0x80 become U+0080..U+00FF).
    (0..n)
        .map(|i| char::from(((i * 7 + 3) % 256) as u8))
        .take_while({
            let mut len = 0;
            move |c| {
                len += c.len_utf8();
                len <= n
            }
        })
        .collect()
}

fn nested_ifs(n: usize) -> String {
    let depth = n / 14;
    format!("{}{}", "#if 1\n".repeat(depth), "#endif\n".repeat(depth))
}

fn exploding_macros(n: usize) -> String {
    // Each line doubles the expansion of the one before; the compiler's expansion limit stops it.
    let mut s = String::from("#define M0 x\n");
    let mut i = 1;
    while s.len() < n - 64 {
        s.push_str(&format!("#define M{i} M{} M{}\n", i - 1, i - 1));
        i += 1;
    }
    s.push_str(&format!("float f = M{};\n", i - 1));
    s
}

fn nested_parens(n: usize) -> String {
    let depth = n / 2 - 16;
    format!("float x = {}1{};\n", "(".repeat(depth), ")".repeat(depth))
}

/// A valid effect of about `n` bytes: many helper functions (DXC parses them all) and one pass.
fn valid(n: usize) -> String {
    let mut s = String::from("float4 Tint = float4(1, 0.5, 0.25, 1);\n");
    let mut i = 0;
    while s.len() < n - 200 {
        s.push_str(&format!(
            "float4 Helper{i}(float4 c) {{ return c * {}.0 + Tint * 0.5; }}\n",
            i % 7 + 1
        ));
        i += 1;
    }
    s.push_str(
        "float4 MainPS(float4 c : COLOR0) : COLOR0 { return Helper0(c); }\n\
         technique T { pass P0 { PixelShader = compile ps_3_0 MainPS(); } }\n",
    );
    s
}

fn time(text: &str) -> (Duration, bool) {
    let t = Instant::now();
    let ok = compile_source(std::path::Path::new("bench.fx"), text, &Options::default()).is_ok();
    (t.elapsed(), ok)
}

pub fn run() -> Result<(), String> {
    println!();
    println!(
        "== hostile input (whole pipeline, median of 5; per doubling = t(2n) / 2t(n), linear = 1.00)"
    );
    let kinds: [(&str, Maker); 6] = [
        ("junk bytes", junk),
        ("`@` characters", |n| "@".repeat(n)),
        ("NUL bytes", |n| "\0".repeat(n)),
        ("nested #if", nested_ifs),
        ("exploding macros", exploding_macros),
        ("nested parentheses", nested_parens),
    ];
    for (name, make) in kinds {
        let mut row = Vec::new();
        for size in [MIB, 2 * MIB, 4 * MIB, 8 * MIB, 16 * MIB] {
            let text = make(size);
            let mut runs: Vec<Duration> = (0..5).map(|_| time(&text).0).collect();
            runs.sort();
            row.push(runs[2]);
        }
        let per_doubling: Vec<f64> = row
            .windows(2)
            .map(|w| w[1].as_secs_f64() / (2.0 * w[0].as_secs_f64().max(1e-9)))
            .collect();
        let overall = (row[4].as_secs_f64() / (16.0 * row[0].as_secs_f64().max(1e-9))).powf(0.25);
        println!(
            "{name:<20} 1 MiB {:>9}  4 MiB {:>9}  16 MiB {:>9}  per doubling: mean {overall:.2}, worst {:.2}",
            ms(row[0]),
            ms(row[2]),
            ms(row[4]),
            per_doubling.iter().copied().fold(0.0, f64::max),
        );
    }
    let text = valid(MIB);
    let (t, ok) = time(&text);
    if !ok {
        return Err("the 1 MiB valid effect did not compile".into());
    }
    let mut runs = vec![t];
    runs.extend((0..2).map(|_| time(&text).0));
    runs.sort();
    println!(
        "{:<20} 1 MiB {:>9}  (compiles; DXC parses every function)",
        "valid effect",
        ms(runs[1])
    );
    Ok(())
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}
