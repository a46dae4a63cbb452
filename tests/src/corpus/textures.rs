//! Procedural corpus textures and their nearest-filtered CPU sampling.
//!
//! Every texture is small and asymmetric (red grows with x, green with y, blue is a hash of
//! the position), so a flipped, transposed or mirrored read shows. Sampling returns `None` when a
//! coordinate lies so close to a texel boundary that the GPU may pick either texel.

/// Texel content.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pattern {
    /// r = x ramp, g = y ramp, b = position hash, a = 255.
    Gradient,
    /// As `Gradient` with alpha cycling through 255, 200, 120, 40.
    AlphaSteps,
    /// One colour everywhere.
    Solid([u8; 4]),
}

/// A procedurally generated texture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TextureSpec {
    /// A 2D texture; with `mips`, a full chain down to 1x1 (each level has the pattern, with the
    /// level folded into blue so levels differ).
    D2 {
        /// Width of level 0.
        width: u32,
        /// Height of level 0.
        height: u32,
        /// Varies the blue hash.
        seed: u32,
        /// Whether to create a full mip chain.
        mips: bool,
        /// Content.
        pattern: Pattern,
    },
    /// A cube map, faces in MonoGame/GL order +X, -X, +Y, -Y, +Z, -Z.
    Cube {
        /// Edge length.
        size: u32,
        /// Varies the blue channel.
        seed: u32,
    },
    /// A volume texture.
    D3 {
        /// Edge length.
        size: u32,
    },
}

/// Address mode used by a CPU lookup.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Address {
    /// Clamp to the edge texel.
    Clamp,
    /// Repeat.
    Wrap,
    /// Mirrored repeat.
    Mirror,
    /// Outside [0, 1) returns this colour.
    Border([u8; 4]),
}

const BOUNDARY_EPS: f32 = 2e-3;

fn ramp(i: u32, n: u32) -> u8 {
    if n <= 1 {
        128
    } else {
        (i * 255 / (n - 1)) as u8
    }
}

impl TextureSpec {
    /// A plain 2D gradient texture.
    pub const fn d2(width: u32, height: u32, seed: u32) -> TextureSpec {
        TextureSpec::D2 {
            width,
            height,
            seed,
            mips: false,
            pattern: Pattern::Gradient,
        }
    }

    /// A mip-mapped 2D gradient texture.
    pub const fn d2_mips(size: u32, seed: u32) -> TextureSpec {
        TextureSpec::D2 {
            width: size,
            height: size,
            seed,
            mips: true,
            pattern: Pattern::Gradient,
        }
    }

    /// Number of mip levels.
    pub fn levels(&self) -> u32 {
        match *self {
            TextureSpec::D2 {
                width,
                height,
                mips: true,
                ..
            } => 32 - width.max(height).leading_zeros(),
            _ => 1,
        }
    }

    /// Size of a 2D level.
    pub fn level_size(&self, level: u32) -> (u32, u32) {
        match *self {
            TextureSpec::D2 { width, height, .. } => {
                ((width >> level).max(1), (height >> level).max(1))
            }
            TextureSpec::Cube { size, .. } | TextureSpec::D3 { size } => (size, size),
        }
    }

    /// Texel of a 2D level.
    pub fn texel_2d(&self, level: u32, x: u32, y: u32) -> [u8; 4] {
        let TextureSpec::D2 { seed, pattern, .. } = *self else {
            return [0, 0, 0, 0];
        };
        let (w, h) = self.level_size(level);
        let b = ((37 * seed + 53 * level + 29 * x + 71 * y) % 200 + 40) as u8;
        match pattern {
            Pattern::Solid(c) => c,
            Pattern::Gradient => [ramp(x, w), ramp(y, h), b, 255],
            Pattern::AlphaSteps => [
                ramp(x, w),
                ramp(y, h),
                b,
                [255, 200, 120, 40][((x + 2 * y) % 4) as usize],
            ],
        }
    }

    /// Texel of a cube face (0..6).
    pub fn texel_cube(&self, face: u32, x: u32, y: u32) -> [u8; 4] {
        let TextureSpec::Cube { size, seed } = *self else {
            return [0, 0, 0, 0];
        };
        [
            (30 + face * 40) as u8,
            ramp(x, size),
            ((seed * 17 + face * 23 + y * 50) % 256) as u8,
            255,
        ]
    }

    /// Texel of a volume texture.
    pub fn texel_3d(&self, x: u32, y: u32, z: u32) -> [u8; 4] {
        [
            (z * 60 + 20) as u8,
            (x * 60 + 30) as u8,
            (255 - y * 60) as u8,
            255,
        ]
    }

    /// RGBA8 bytes of a 2D level, row 0 first (row 0 is v = 0).
    pub fn level_rgba(&self, level: u32) -> Vec<u8> {
        let (w, h) = self.level_size(level);
        (0..h)
            .flat_map(|y| (0..w).flat_map(move |x| self.texel_2d(level, x, y)))
            .collect()
    }

    /// RGBA8 bytes of a cube face.
    pub fn face_rgba(&self, face: u32) -> Vec<u8> {
        let (s, _) = self.level_size(0);
        (0..s)
            .flat_map(|y| (0..s).flat_map(move |x| self.texel_cube(face, x, y)))
            .collect()
    }

    /// RGBA8 bytes of a volume texture, slice 0 first, rows within a slice, x fastest.
    pub fn volume_rgba(&self) -> Vec<u8> {
        let (s, _) = self.level_size(0);
        (0..s)
            .flat_map(|z| {
                (0..s).flat_map(move |y| (0..s).flat_map(move |x| self.texel_3d(x, y, z)))
            })
            .collect()
    }

    /// Nearest-filtered 2D lookup at a mip level.
    pub fn sample_2d(
        &self,
        level: u32,
        u: f32,
        v: f32,
        au: Address,
        av: Address,
    ) -> Option<[f32; 4]> {
        let (w, h) = self.level_size(level);
        let x = match index(u, w, au)? {
            Ok(i) => i,
            Err(border) => return Some(norm(border)),
        };
        let y = match index(v, h, av)? {
            Ok(i) => i,
            Err(border) => return Some(norm(border)),
        };
        Some(norm(self.texel_2d(level, x, y)))
    }

    /// Nearest-filtered cube lookup (GL major-axis rules, clamp to edge).
    pub fn sample_cube(&self, dir: [f32; 3]) -> Option<[f32; 4]> {
        let [rx, ry, rz] = dir;
        let (ax, ay, az) = (rx.abs(), ry.abs(), rz.abs());
        let mut mags = [ax, ay, az];
        mags.sort_by(|a, b| b.total_cmp(a));
        if mags[0] - mags[1] < 1e-3 * mags[0] {
            return None; // on a cube edge: either face may win
        }
        let (face, sc, tc, ma) = if ax >= ay && ax >= az {
            if rx > 0.0 {
                (0, -rz, -ry, ax)
            } else {
                (1, rz, -ry, ax)
            }
        } else if ay >= az {
            if ry > 0.0 {
                (2, rx, rz, ay)
            } else {
                (3, rx, -rz, ay)
            }
        } else if rz > 0.0 {
            (4, rx, -ry, az)
        } else {
            (5, -rx, -ry, az)
        };
        let s = (sc / ma + 1.0) * 0.5;
        let t = (tc / ma + 1.0) * 0.5;
        let (size, _) = self.level_size(0);
        let x = index(s, size, Address::Clamp)?.ok()?;
        let y = index(t, size, Address::Clamp)?.ok()?;
        Some(norm(self.texel_cube(face, x, y)))
    }

    /// Nearest-filtered volume lookup, clamp to edge.
    pub fn sample_3d(&self, p: [f32; 3]) -> Option<[f32; 4]> {
        let (s, _) = self.level_size(0);
        let x = index(p[0], s, Address::Clamp)?.ok()?;
        let y = index(p[1], s, Address::Clamp)?.ok()?;
        let z = index(p[2], s, Address::Clamp)?.ok()?;
        Some(norm(self.texel_3d(x, y, z)))
    }
}

/// Bytes to 0..1 floats.
pub fn norm(c: [u8; 4]) -> [f32; 4] {
    c.map(|v| v as f32 / 255.0)
}

/// Texel index for a normalised coordinate; `None` = too close to a boundary to call,
/// `Err(border)` = outside the texture with a border address mode.
fn index(coord: f32, n: u32, mode: Address) -> Option<Result<u32, [u8; 4]>> {
    let t = coord * n as f32;
    let nearest = t.round();
    let near_boundary = (t - nearest).abs() < BOUNDARY_EPS;
    let clamp = |t: f32| (t.floor().max(0.0) as u32).min(n - 1);
    match mode {
        Address::Clamp => {
            // Only interior boundaries are ambiguous; beyond the edges the clamp decides.
            if near_boundary && nearest > 0.0 && nearest < n as f32 {
                return None;
            }
            Some(Ok(clamp(t)))
        }
        Address::Wrap => {
            if near_boundary {
                return None;
            }
            Some(Ok(clamp(t.rem_euclid(n as f32))))
        }
        Address::Mirror => {
            if near_boundary {
                return None;
            }
            let period = coord.floor();
            let f = coord - period;
            let m = if (period as i64).rem_euclid(2) == 0 {
                f
            } else {
                1.0 - f
            };
            Some(Ok(clamp(m * n as f32)))
        }
        Address::Border(c) => {
            if near_boundary && nearest >= 0.0 && nearest <= n as f32 {
                return None;
            }
            if t < 0.0 || t >= n as f32 {
                Some(Err(c))
            } else {
                Some(Ok(clamp(t)))
            }
        }
    }
}
