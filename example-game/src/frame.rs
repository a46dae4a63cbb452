//! What a frame shows, whichever renderer draws it (OpenGL in [`game`](crate::game), wgpu in
//! [`wgpu_game`](crate::wgpu_game)): the typed parameters of every effect at a given time, the
//! keys, and the text laid out as sprites. Keeping it here is what makes the two renderers'
//! screenshots comparable pixel for pixel.

use shadowdusk::gl::Sprite;

use crate::cube;
use crate::effects::{cube as cube_fx, grayscale, sepia, skinned as skinned_fx, tint, wave};
use crate::font;
use crate::scene::{self, Rect, Scene};
use crate::skinned;

/// A key the game reacts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// `1`..`6`: that scene.
    Digit(u8),
    /// Tab: the next scene.
    Tab,
}

impl Key {
    /// The scene shown after pressing the key on `scene` (unchanged for a digit with no scene).
    pub fn apply(self, scene: Scene) -> Scene {
        match self {
            Key::Digit(d) => Scene::ALL
                .get(usize::from(d).wrapping_sub(1))
                .copied()
                .unwrap_or(scene),
            Key::Tab => scene.next(),
        }
    }
}

/// The typed parameters of every effect, set each frame by [`Params::update`].
#[derive(Clone, Debug)]
pub struct Params {
    /// The animated tint of the tint scene.
    pub tint: tint::Params,
    /// A white tint: the untouched sprite, the text, the render-target inset.
    pub plain: tint::Params,
    /// The sepia scene.
    pub sepia: sepia::Params,
    /// The grayscale scene.
    pub grayscale: grayscale::Params,
    /// The wave scene.
    pub wave: wave::Params,
    /// The cube in the back buffer.
    pub cube: cube_fx::Params,
    /// The same cube in the render target (another projection).
    pub cube_inset: cube_fx::Params,
    /// The skinned ribbon.
    pub skinned: skinned_fx::Params,
}

impl Params {
    /// Every effect's parameters at time 0.
    pub fn new() -> Params {
        let mut p = Params {
            tint: tint::Params::DEFAULT,
            plain: tint::Params::DEFAULT,
            sepia: sepia::Params::DEFAULT,
            grayscale: grayscale::Params::DEFAULT,
            wave: wave::Params::DEFAULT,
            cube: cube_fx::Params::DEFAULT,
            cube_inset: cube_fx::Params::DEFAULT,
            skinned: skinned_fx::Params::DEFAULT,
        };
        p.plain.set_tint([1.0; 4]);
        p.update(0.0);
        p
    }

    /// Advances every animated parameter to `time` seconds, through the typed setters.
    pub fn update(&mut self, time: f32) {
        self.tint.set_tint(scene::tint_at(time));
        self.sepia.set_amount(1.0);
        self.wave.set_time(scene::wave_time(time));
        for (params, width, height) in [
            (&mut self.cube, scene::WIDTH, scene::HEIGHT),
            (
                &mut self.cube_inset,
                scene::INSET.width,
                scene::INSET.height,
            ),
        ] {
            params.set_world(cube::world(time));
            params.set_view(cube::view());
            params.set_projection(cube::projection(width, height));
            params.set_light_direction(cube::LIGHT_DIRECTION);
        }
        skinned::update(&mut self.skinned, time, scene::WIDTH, scene::HEIGHT);
    }
}

impl Default for Params {
    fn default() -> Params {
        Params::new()
    }
}

/// A sprite covering `r`.
pub fn sprite(r: Rect) -> Sprite {
    Sprite::new(r.x as f32, r.y as f32, r.width as f32, r.height as f32)
}

const CAPTION: [u8; 4] = [200, 200, 210, 255];

/// The caption above the cube scene's render-target inset.
pub fn inset_caption() -> Vec<Sprite> {
    font::layout(
        "RENDER TARGET",
        scene::INSET.x as f32,
        scene::INSET.y as f32 - 10.0,
        1.0,
        CAPTION,
    )
}

/// The captions above a sprite scene's two sprites: `ORIGINAL` and the effect's name.
pub fn sprite_captions(scene: Scene) -> Vec<Sprite> {
    let mut captions = font::layout(
        "ORIGINAL",
        scene::ORIGINAL.x as f32,
        scene::ORIGINAL.y as f32 - 18.0,
        2.0,
        CAPTION,
    );
    captions.extend(font::layout(
        scene.name(),
        scene::EFFECT.x as f32,
        scene::EFFECT.y as f32 - 18.0,
        2.0,
        CAPTION,
    ));
    captions
}

/// The scene's label at the top and the key help at the bottom of a screen `height` tall.
pub fn overlay(scene: Scene, height: u32) -> Vec<Sprite> {
    let mut text = font::layout(&scene.label(), 16.0, 12.0, 3.0, [255; 4]);
    text.extend(font::layout(
        "1-6 OR TAB: SWITCH EFFECT    ESC: QUIT",
        16.0,
        height as f32 - 22.0,
        2.0,
        [150, 160, 180, 255],
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_choose_scenes() {
        assert_eq!(Key::Digit(5).apply(Scene::Tint), Scene::Cube);
        assert_eq!(Key::Digit(9).apply(Scene::Wave), Scene::Wave);
        assert_eq!(Key::Digit(0).apply(Scene::Wave), Scene::Wave);
        assert_eq!(Key::Tab.apply(Scene::Skinned), Scene::Tint);
    }
}
