//! What a material and a post-process share: effect `E`'s typed parameters (`params`) and the
//! images bound to its texture parameters (`textures`, by MGFX parameter index, as
//! `TextureSlot::parameter_index` counts), with one set of accessors for both.

/// The accessors of a type with fields `params: E::Params` and
/// `textures: Vec<(usize, Handle<Image>)>`, expanded in its `impl<E: Effect>` block.
macro_rules! typed_inputs {
    () => {
        /// The parameters.
        pub fn params(&self) -> &E::Params {
            &self.params
        }

        /// The parameters, to change (in a system: the next frame draws them).
        pub fn params_mut(&mut self) -> &mut E::Params {
            &mut self.params
        }

        /// Replaces the parameters.
        pub fn with_params(mut self, params: E::Params) -> Self {
            self.params = params;
            self
        }

        /// Binds `image` to the texture parameter `slot` (on every unit it is sampled on).
        pub fn set_texture(&mut self, slot: TextureSlot<E>, image: Handle<Image>) {
            let parameter = slot.parameter_index();
            self.textures.retain(|(p, _)| *p != parameter);
            self.textures.push((parameter, image));
        }

        /// [`set_texture`](Self::set_texture), by value.
        pub fn with_texture(mut self, slot: TextureSlot<E>, image: Handle<Image>) -> Self {
            self.set_texture(slot, image);
            self
        }

        /// The image bound to `slot`.
        pub fn texture(&self, slot: TextureSlot<E>) -> Option<&Handle<Image>> {
            self.image(slot.parameter_index())
        }

        /// The image bound to texture parameter `parameter`.
        fn image(&self, parameter: usize) -> Option<&Handle<Image>> {
            self.textures
                .iter()
                .find(|(p, _)| *p == parameter)
                .map(|(_, h)| h)
        }
    };
}

pub(crate) use typed_inputs;
