//! [`Sprite`]: one SpriteBatch quad, shared by the GL and wgpu sprite batches.

/// One sprite: a pixel rectangle, a colour and texture coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprite {
    /// Left edge in pixels.
    pub x: f32,
    /// Top edge in pixels.
    pub y: f32,
    /// Width in pixels.
    pub width: f32,
    /// Height in pixels.
    pub height: f32,
    /// Vertex colour (SpriteBatch's `Color`: premultiplied, normalized u8x4).
    pub color: [u8; 4],
    /// Texture coordinates of the top-left and bottom-right corners.
    pub uv: [[f32; 2]; 2],
    /// Depth (`Position.z`, SpriteBatch's `layerDepth`).
    pub depth: f32,
}

impl Sprite {
    /// The whole texture, white, at (`x`, `y`) with the given size, depth 0.
    pub fn new(x: f32, y: f32, width: f32, height: f32) -> Sprite {
        Sprite {
            x,
            y,
            width,
            height,
            color: [255; 4],
            uv: [[0.0, 0.0], [1.0, 1.0]],
            depth: 0.0,
        }
    }
}

impl Sprite {
    /// Its four `VertexPositionColorTexture` vertices (Position float3, Color, TextureCoordinate
    /// float2; 24 little-endian bytes each) in SpriteBatch's order: top left, top right, bottom
    /// left, bottom right (drawn as triangles 0,1,2 and 1,3,2).
    pub fn vertices(&self) -> [[u8; 24]; 4] {
        let [[u0, v0], [u1, v1]] = self.uv;
        let (right, bottom) = (self.x + self.width, self.y + self.height);
        let corners = [
            (self.x, self.y, u0, v0),
            (right, self.y, u1, v0),
            (self.x, bottom, u0, v1),
            (right, bottom, u1, v1),
        ];
        corners.map(|(x, y, u, v)| {
            let mut out = [0u8; 24];
            for (at, f) in [(0, x), (4, y), (8, self.depth), (16, u), (20, v)] {
                out[at..at + 4].copy_from_slice(&f.to_le_bytes());
            }
            out[12..16].copy_from_slice(&self.color);
            out
        })
    }
}

/// SpriteBatch's default transform for a `width`×`height` viewport:
/// `Matrix.CreateOrthographicOffCenter(0, w, h, 0, 0, -1)`, plus SpriteEffect's half-pixel
/// shift (`M41 -= 0.5*M11`, `M42 -= 0.5*M22`) when the device uses the half-pixel offset.
/// `m[r][c]` = XNA `M(r+1, c+1)`.
pub(crate) fn default_transform(width: u32, height: u32, half_pixel_offset: bool) -> [[f32; 4]; 4] {
    let (w, h) = (width.max(1) as f32, height.max(1) as f32);
    let mut m = [[0.0f32; 4]; 4];
    m[0][0] = 2.0 / w;
    m[1][1] = -2.0 / h;
    m[2][2] = 1.0; // 1 / (zNear - zFar) = 1 / (0 - -1)
    m[3][0] = -1.0; // (left + right) / (left - right)
    m[3][1] = 1.0; // (top + bottom) / (bottom - top)
    m[3][2] = 0.0; // zNear / (zNear - zFar)
    m[3][3] = 1.0;
    if half_pixel_offset {
        m[3][0] += -0.5 * m[0][0];
        m[3][1] += -0.5 * m[1][1];
    }
    m
}
