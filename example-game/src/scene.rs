//! What the game shows: the scenes, the screen layout and every animated parameter as a
//! function of time. Pure data, shared by the renderer and the screenshot test, so the test
//! knows where to look and what value a parameter had.

/// Screen width the layout is designed for (the headless size and the window's size).
pub const WIDTH: u32 = 640;
/// Screen height.
pub const HEIGHT: u32 = 360;

/// The fixed time step of the headless loop: frame `n` is drawn at `n / FPS` seconds.
pub const FPS: f32 = 60.0;

/// Background colour (the window's clear colour).
pub const BACKGROUND: [u8; 4] = [28, 30, 44, 255];

/// Clear colour of the cube's render target inset.
pub const INSET_BACKGROUND: [u8; 4] = [60, 44, 72, 255];

/// A rectangle in pixels: left, top, width, height.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// The untouched sprite in the sprite scenes (drawn through `tint` with a white tint).
pub const ORIGINAL: Rect = Rect {
    x: 48,
    y: 72,
    width: 256,
    height: 256,
};

/// The same sprite through the scene's effect.
pub const EFFECT: Rect = Rect {
    x: 336,
    y: 72,
    width: 256,
    height: 256,
};

/// Where the cube scene shows its render-target copy (drawn into an FBO, then as a sprite).
pub const INSET: Rect = Rect {
    x: 464,
    y: 240,
    width: 160,
    height: 90,
};

// The layout fits the screen, and the two sprites side by side do not overlap.
const _: () = {
    const fn fits(r: Rect) -> bool {
        r.x + r.width <= WIDTH && r.y + r.height <= HEIGHT
    }
    assert!(fits(ORIGINAL) && fits(EFFECT) && fits(INSET));
    assert!(ORIGINAL.x + ORIGINAL.width <= EFFECT.x);
};

/// One screen of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scene {
    /// The sprite multiplied by an animated colour.
    Tint,
    /// Sepia tone.
    Sepia,
    /// Luma in every channel.
    Grayscale,
    /// Rows shifted by a sine of time.
    Wave,
    /// The lit, textured, outlined cube.
    Cube,
    /// The ribbon bent by two bones (GPU skinning).
    Skinned,
}

impl Scene {
    /// Every scene, in key order (key `1` is the first).
    pub const ALL: [Scene; 6] = [
        Scene::Tint,
        Scene::Sepia,
        Scene::Grayscale,
        Scene::Wave,
        Scene::Cube,
        Scene::Skinned,
    ];

    /// Lower-case name, used in screenshot file names and `--scene`.
    pub fn name(self) -> &'static str {
        match self {
            Scene::Tint => "tint",
            Scene::Sepia => "sepia",
            Scene::Grayscale => "grayscale",
            Scene::Wave => "wave",
            Scene::Cube => "cube",
            Scene::Skinned => "skinned",
        }
    }

    /// The scene called `name`.
    pub fn from_name(name: &str) -> Option<Scene> {
        Scene::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Position in [`Scene::ALL`].
    pub fn index(self) -> usize {
        Scene::ALL.iter().position(|s| *s == self).unwrap_or(0)
    }

    /// The next scene (Tab), wrapping around.
    pub fn next(self) -> Scene {
        Scene::ALL[(self.index() + 1) % Scene::ALL.len()]
    }

    /// The on-screen label, e.g. `[1/5] TINT`.
    pub fn label(self) -> String {
        format!(
            "[{}/{}] {}",
            self.index() + 1,
            Scene::ALL.len(),
            self.name().to_ascii_uppercase()
        )
    }
}

/// Seconds at frame `frame` of the fixed-step loop.
pub fn frame_time(frame: u64) -> f32 {
    frame as f32 / FPS
}

/// The `Tint` parameter at `time`: each channel swings between 0.2 and 1.0, a third of a turn
/// apart.
pub fn tint_at(time: f32) -> [f32; 4] {
    let third = std::f32::consts::TAU / 3.0;
    let channel = |k: f32| 0.6 + 0.4 * (time * 1.7 + k * third).sin();
    [channel(0.0), channel(1.0), channel(2.0), 1.0]
}

/// The wave effect's `Time` parameter at `time`.
pub fn wave_time(time: f32) -> f32 {
    time
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenes_cycle_and_are_found_by_name() {
        assert_eq!(Scene::Cube.next(), Scene::Skinned);
        assert_eq!(Scene::Skinned.next(), Scene::Tint);
        assert_eq!(Scene::from_name("wave"), Some(Scene::Wave));
        assert_eq!(Scene::Sepia.label(), "[2/6] SEPIA");
    }
}
