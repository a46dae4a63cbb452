//! Shader hot reload in the game (`--hot`, `--hot-dir DIR`, on either runtime). Every effect is
//! a [`Shader`]: the effect built into the game, or a `shadowdusk::hot::HotEffect` (on wgpu a
//! `WgpuHotEffect`) following its source file and swapping in each saved edit whose register
//! layout still fits the generated code.
//! [`Status`] turns what the once-a-frame polls found into the on-screen label and stderr
//! lines.

use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};

use shadowdusk::gl::{GlContext, GlEffect, Sprite};
use shadowdusk::hot::{HotEffect, Reload, WgpuHotEffect};
use shadowdusk::wgpu;
use shadowdusk::wgpu_runtime::WgpuEffect;
use shadowdusk::Effect;

use crate::font;

/// Which files the game's effects follow.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Watch {
    /// None: the effects as built (no `--hot`).
    #[default]
    Off,
    /// `--hot`: each effect's source as the build compiled it (`E::SOURCE`, in `shaders/`).
    Sources,
    /// `--hot-dir DIR`: `DIR/<file name>` for each effect (a copy of `shaders/`).
    Dir(PathBuf),
}

impl Watch {
    /// What `E` follows: `None` when off, `Some(None)` its source as the build compiled it,
    /// `Some(Some(file))` the file of its name in the `--hot-dir` folder.
    fn source<E: Effect>(&self) -> Option<Option<PathBuf>> {
        match self {
            Watch::Off => None,
            Watch::Sources => Some(None),
            Watch::Dir(dir) => Some(Some(dir.join(E::NAME))),
        }
    }

    /// What the label says is watched, or `None` when off.
    pub fn describe<E: Effect>(&self) -> Option<String> {
        match self {
            Watch::Off => None,
            Watch::Sources => Some(match Path::new(E::SOURCE).parent() {
                Some(dir) => dir.display().to_string(),
                None => "the effects' sources".to_string(),
            }),
            Watch::Dir(dir) => Some(dir.display().to_string()),
        }
    }
}

/// An effect the game draws with, on either runtime: `F` the built effect (`GlEffect<E>`,
/// `WgpuEffect<E>`), `H` the one following its source (`HotEffect<E>`, `WgpuHotEffect<E>`).
/// Derefs to the `F` it currently is, so drawing code does not care which.
pub enum Shader<F, H> {
    /// The effect built into the game.
    Fixed(F),
    /// The built effect, replaced by each edit of its source that still fits.
    Hot(H),
}

/// An effect of the game on OpenGL.
pub type GlShader<E> = Shader<GlEffect<E>, HotEffect<E>>;
/// An effect of the game on wgpu.
pub type WgpuShader<E> = Shader<WgpuEffect<E>, WgpuHotEffect<E>>;

/// A hot effect of either runtime: what the game polls once a frame.
pub trait Follows {
    /// Swaps in a finished recompile, if any.
    fn poll(&mut self) -> Reload;
}

impl<E: Effect> Follows for HotEffect<E> {
    fn poll(&mut self) -> Reload {
        HotEffect::poll(self)
    }
}

impl<E: Effect> Follows for WgpuHotEffect<E> {
    fn poll(&mut self) -> Reload {
        WgpuHotEffect::poll(self)
    }
}

impl<E: Effect> GlShader<E> {
    /// Loads `E` on GL and, unless `watch` is off, starts following its source.
    pub fn load(ctx: &GlContext, watch: &Watch) -> Result<GlShader<E>, String> {
        let failed = |e: &dyn std::fmt::Display| format!("loading effect {}: {e}", E::NAME);
        match watch.source::<E>() {
            None => GlEffect::new(ctx)
                .map(Shader::Fixed)
                .map_err(|e| failed(&e)),
            Some(None) => HotEffect::new(ctx).map(Shader::Hot).map_err(|e| failed(&e)),
            Some(Some(file)) => HotEffect::watching(ctx, &file)
                .map(Shader::Hot)
                .map_err(|e| failed(&e)),
        }
    }
}

impl<E: Effect> WgpuShader<E> {
    /// Loads `E` on `device` and, unless `watch` is off, starts following its source.
    pub fn load(device: &wgpu::Device, watch: &Watch) -> Result<WgpuShader<E>, String> {
        let failed =
            |e: &dyn std::fmt::Display| format!("loading effect {} for wgpu: {e}", E::NAME);
        match watch.source::<E>() {
            None => WgpuEffect::new(device)
                .map(Shader::Fixed)
                .map_err(|e| failed(&e)),
            Some(None) => WgpuHotEffect::new(device)
                .map(Shader::Hot)
                .map_err(|e| failed(&e)),
            Some(Some(file)) => WgpuHotEffect::watching(device, &file)
                .map(Shader::Hot)
                .map_err(|e| failed(&e)),
        }
    }
}

impl<F, H: Follows> Shader<F, H> {
    /// Swaps in a finished recompile, if any; always [`Reload::Unchanged`] for a fixed effect.
    /// Once a frame, before drawing.
    pub fn poll(&mut self) -> Reload {
        match self {
            Shader::Fixed(_) => Reload::Unchanged,
            Shader::Hot(hot) => hot.poll(),
        }
    }
}

impl<F, H: DerefMut<Target = F>> Deref for Shader<F, H> {
    type Target = F;
    fn deref(&self) -> &F {
        match self {
            Shader::Fixed(fx) => fx,
            Shader::Hot(hot) => hot,
        }
    }
}

impl<F, H: DerefMut<Target = F>> DerefMut for Shader<F, H> {
    fn deref_mut(&mut self) -> &mut F {
        match self {
            Shader::Fixed(fx) => fx,
            Shader::Hot(hot) => hot,
        }
    }
}

/// Something a poll found: a reload, or a save that was refused or failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The effect's file name (`tint.fx`).
    pub effect: &'static str,
    /// What happened; never [`Reload::Unchanged`].
    pub reload: Reload,
    /// Game time in tenths of a second.
    pub tenths: u64,
}

impl Event {
    /// The event for `reload` of effect `E` at `time` seconds; `None` for `Unchanged`.
    pub fn of<E: Effect>(reload: Reload, time: f32) -> Option<Event> {
        (reload != Reload::Unchanged).then(|| Event {
            effect: E::NAME,
            reload,
            tenths: (time.max(0.0) * 10.0).round() as u64,
        })
    }

    fn at(&self) -> String {
        format!("at {}.{} s", self.tenths / 10, self.tenths % 10)
    }

    /// The full text for stderr.
    pub fn report(&self) -> String {
        let at = self.at();
        let kept = "the previous effect keeps running";
        match &self.reload {
            Reload::Unchanged => format!("{} unchanged {at}", self.effect),
            Reload::Reloaded => format!("reloaded {} {at}", self.effect),
            Reload::Refused(why) => format!("{} refused {at} ({kept}):\n{why}", self.effect),
            Reload::Failed(why) => format!("{} failed {at} ({kept}):\n{why}", self.effect),
        }
    }
}

/// Headline colours: reloaded, refused, failed, idle.
const GREEN: [u8; 4] = [120, 230, 140, 255];
const AMBER: [u8; 4] = [255, 190, 80, 255];
const RED: [u8; 4] = [255, 110, 110, 255];
const GREY: [u8; 4] = [150, 160, 180, 255];
/// Detail lines.
const DETAIL: [u8; 4] = [215, 215, 225, 255];

/// Where the label goes: the headline at the top right, right of the scene label (`[3/6]
/// GRAYSCALE` ends at x = 286); the detail lines across the screen between the scene label
/// (which ends at y = 36) and the sprite captions (y = 54).
const HEADLINE_LEFT: f32 = 300.0;
const MARGIN: f32 = 16.0;
const HEADLINE_Y: f32 = 12.0;
const HEADLINE_SCALE: f32 = 2.0;
const DETAIL_Y: f32 = 38.0;
const DETAIL_SCALE: f32 = 1.0;
/// Detail lines, one font cell (8 pixels, a blank row included) apart.
const DETAIL_LINES: usize = 2;
const DETAIL_PITCH: f32 = 8.0;

/// One line of the label.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The text (drawn upper-case).
    pub text: String,
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Pixels per font pixel.
    pub scale: f32,
    /// Colour.
    pub color: [u8; 4],
}

/// What the hot-reload label shows: what is watched until something happens, then the newest
/// event (a problem with the first line of its reason).
#[derive(Clone, Debug)]
pub struct Status {
    watching: String,
    newest: Option<Event>,
    reloads: u64,
}

impl Status {
    /// A label for effects watched in `watching` (a folder, for the label).
    pub fn new(watching: String) -> Status {
        Status {
            watching,
            newest: None,
            reloads: 0,
        }
    }

    /// Shows `event` from now on and prints its full text to stderr.
    pub fn record(&mut self, event: Event) {
        eprintln!("example-game: {}", event.report());
        if event.reload == Reload::Reloaded {
            self.reloads += 1;
        }
        self.newest = Some(event);
    }

    /// Records what a frame's polls found (`None`: nothing for that effect) and returns it.
    pub fn record_all(&mut self, found: impl IntoIterator<Item = Option<Event>>) -> Vec<Event> {
        let events: Vec<Event> = found.into_iter().flatten().collect();
        for event in &events {
            self.record(event.clone());
        }
        events
    }

    /// The newest event, if any.
    pub fn newest(&self) -> Option<&Event> {
        self.newest.as_ref()
    }

    /// The label's lines for a screen `width` pixels wide: a headline at the top right, then
    /// up to two detail lines, each cut to fit.
    pub fn lines(&self, width: u32) -> Vec<Line> {
        let right = width as f32 - MARGIN;
        let columns = |left: f32, scale: f32| {
            ((right - left) / font::text_width("x", scale)).max(4.0) as usize
        };
        let detail_columns = columns(MARGIN, DETAIL_SCALE);
        let (headline, color, detail) = match &self.newest {
            None => (
                "HOT RELOAD ON".to_string(),
                GREY,
                format!("watching {}", keep_end(&self.watching, detail_columns - 9)),
            ),
            Some(event) => {
                let name = event.effect.to_ascii_uppercase();
                match &event.reload {
                    Reload::Unchanged | Reload::Reloaded => (
                        format!("{name} RELOADED"),
                        GREEN,
                        format!("{}, reload {} since start", event.at(), self.reloads),
                    ),
                    Reload::Refused(why) => (
                        format!("{name} REFUSED"),
                        AMBER,
                        format!("{}: {}", event.at(), first_line(why)),
                    ),
                    Reload::Failed(why) => (
                        format!("{name} FAILED"),
                        RED,
                        format!("{}: {}", event.at(), first_line(why)),
                    ),
                }
            }
        };
        let headline = truncate(&headline, columns(HEADLINE_LEFT, HEADLINE_SCALE));
        let mut lines = vec![Line {
            x: (right - font::text_width(&headline, HEADLINE_SCALE)).max(HEADLINE_LEFT),
            text: headline,
            y: HEADLINE_Y,
            scale: HEADLINE_SCALE,
            color,
        }];
        for (i, text) in wrap(&detail, detail_columns, DETAIL_LINES)
            .into_iter()
            .enumerate()
        {
            lines.push(Line {
                text,
                x: MARGIN,
                y: DETAIL_Y + i as f32 * DETAIL_PITCH,
                scale: DETAIL_SCALE,
                color: DETAIL,
            });
        }
        lines
    }

    /// [`Status::lines`] as font quads.
    pub fn sprites(&self, width: u32) -> Vec<Sprite> {
        self.lines(width)
            .iter()
            .flat_map(|l| font::layout(&l.text, l.x, l.y, l.scale, l.color))
            .collect()
    }
}

/// The first line of a reason (of a compile's output, the first error's: warnings may come
/// first), its leading path shortened to the file name (`/tmp/x/shaders/tint.fx:9:40: error…`
/// → `tint.fx:9:40: error…`).
pub fn first_line(why: &str) -> String {
    let first = why.lines().next().unwrap_or("");
    let line = why
        .lines()
        .find(|l| l.contains(": error"))
        .unwrap_or(first)
        .trim();
    if let Some((head, rest)) = line.split_once(':') {
        if let Some(name) = Path::new(head).file_name() {
            if head.contains('/') {
                return format!("{}:{rest}", name.to_string_lossy());
            }
        }
    }
    line.to_string()
}

/// `text` cut to `columns` characters, ending in `...` when cut.
pub fn truncate(text: &str, columns: usize) -> String {
    if text.chars().count() <= columns {
        return text.to_string();
    }
    let kept: String = text.chars().take(columns.saturating_sub(3)).collect();
    format!("{}...", kept.trim_end())
}

/// `text` cut from the front to `columns` characters (a path keeps its end).
fn keep_end(text: &str, columns: usize) -> String {
    let count = text.chars().count();
    if count <= columns {
        return text.to_string();
    }
    let kept: String = text
        .chars()
        .skip(count - columns.saturating_sub(3))
        .collect();
    format!("...{kept}")
}

/// `text` word-wrapped into at most `max_lines` lines of `columns` characters, the last one
/// truncated when the text does not fit. Words longer than a line are split.
pub fn wrap(text: &str, columns: usize, max_lines: usize) -> Vec<String> {
    let columns = columns.max(4);
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        let mut word: String = word.to_string();
        loop {
            let used = current.chars().count();
            let need = word.chars().count() + usize::from(used > 0);
            if used + need <= columns {
                if used > 0 {
                    current.push(' ');
                }
                current.push_str(&word);
                break;
            }
            if used > 0 {
                lines.push(std::mem::take(&mut current));
                continue;
            }
            // A word longer than a line: split it.
            let head: String = word.chars().take(columns).collect();
            word = word.chars().skip(columns).collect();
            lines.push(head);
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    if lines.len() > max_lines {
        let rest = lines[max_lines - 1..].join(" ");
        lines.truncate(max_lines - 1);
        lines.push(truncate(&rest, columns));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_lines_lose_their_folders() {
        assert_eq!(
            first_line("/tmp/a/tint.fx:9:40: error[SD0001]: oops\n  snippet"),
            "tint.fx:9:40: error[SD0001]: oops"
        );
        assert_eq!(
            first_line("example-game/shaders/tint.fx: the new effect does not fit"),
            "tint.fx: the new effect does not fit"
        );
        assert_eq!(first_line("error: no colon path"), "error: no colon path");
        assert_eq!(
            first_line("a/b.fx:1:2: warning[SD0110]: w\n  snippet\n\na/b.fx:3:4: error[SD0100]: e"),
            "b.fx:3:4: error[SD0100]: e"
        );
    }

    #[test]
    fn wrapping_keeps_words_and_marks_a_cut() {
        assert_eq!(wrap("aa bb cc", 5, 3), ["aa bb", "cc"]);
        assert_eq!(wrap("aa bb cc dd ee", 5, 2), ["aa bb", "cc..."]);
        assert_eq!(wrap("abcdefgh", 4, 3), ["abcd", "efgh"]);
        assert_eq!(truncate("abcdefgh", 6), "abc...");
        assert_eq!(keep_end("/a/b/shaders", 8), "...aders");
    }

    #[test]
    fn the_label_names_the_effect_and_the_reason() {
        let mut status = Status::new("/work/shaders".into());
        assert_eq!(status.lines(640)[0].text, "HOT RELOAD ON");
        status.newest = Some(Event {
            effect: "tint.fx",
            reload: Reload::Refused(
                "/x/tint.fx: the new effect does not fit the code generated for it (parameter \
                 `Tint` changed from float4 to float2); the previous effect stays until the game \
                 is rebuilt"
                    .into(),
            ),
            tenths: 123,
        });
        let lines = status.lines(640);
        assert_eq!(lines[0].text, "TINT.FX REFUSED");
        assert_eq!(lines[0].x + font::text_width("TINT.FX REFUSED", 2.0), 624.0);
        let detail: Vec<&str> = lines[1..].iter().map(|l| l.text.as_str()).collect();
        assert_eq!(detail.len(), 2);
        assert!(
            detail[0].starts_with("at 12.3 s: tint.fx: the new"),
            "{detail:?}"
        );
        assert!(
            detail
                .join(" ")
                .contains("`Tint` changed from float4 to float2"),
            "{detail:?}"
        );
        for l in &lines {
            assert!(l.x >= 16.0 && l.x + font::text_width(&l.text, l.scale) <= 624.0);
        }
    }
}
