//! Every figure `cargo xtask bench` holds against a target, gathered while the parts run and
//! printed together at the end, so one run gives the whole table.

use std::sync::Mutex;
use std::time::Duration;

struct Figure {
    name: String,
    value: String,
    target: String,
    met: Option<bool>,
}

static FIGURES: Mutex<Vec<Figure>> = Mutex::new(Vec::new());

fn push(f: Figure) {
    FIGURES.lock().unwrap_or_else(|e| e.into_inner()).push(f);
}

/// A time that should be at most `max`.
pub fn at_most(name: &str, value: Duration, max: Duration) {
    push(Figure {
        name: name.to_string(),
        value: ms(value),
        target: format!("≤ {}", ms(max)),
        met: Some(value <= max),
    });
}

/// A ratio that should be at most `max` (`at_least` false) or at least it.
pub fn ratio(name: &str, value: f64, bound: f64, at_least: bool) {
    push(Figure {
        name: name.to_string(),
        value: format!("{value:.2}×"),
        target: format!("{} {bound:.2}×", if at_least { "≥" } else { "≤" }),
        met: Some(if at_least {
            value >= bound
        } else {
            value <= bound
        }),
    });
}

/// A figure that could not be measured, and why.
pub fn missing(name: &str, why: &str) {
    push(Figure {
        name: name.to_string(),
        value: format!("not measured: {why}"),
        target: String::new(),
        met: None,
    });
}

/// The table of every figure recorded in this run.
pub fn print() {
    let figures = FIGURES.lock().unwrap_or_else(|e| e.into_inner());
    if figures.is_empty() {
        return;
    }
    println!();
    println!("== targets (this run)");
    println!("{:<72} {:>12} {:>12}  met", "figure", "value", "target");
    for f in figures.iter() {
        let met = match f.met {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "-",
        };
        println!("{:<72} {:>12} {:>12}  {met}", f.name, f.value, f.target);
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}
