//! The look of the picture: its colours (one [`LOOK`] for every renderer),
//! the sizes they are drawn at ([`Style`]), and the strain colour ramp.

/// A colour as `0xAABBGGRR`: the byte order `R, G, B, A` of `ImageData` on a
/// little-endian machine (wasm is little-endian).
pub type Rgba = u32;

/// Builds an opaque colour from `0xRRGGBB`.
pub const fn rgb(hex: u32) -> Rgba {
    let (r, g, b) = ((hex >> 16) & 0xff, (hex >> 8) & 0xff, hex & 0xff);
    0xff00_0000 | (b << 16) | (g << 8) | r
}

/// The picture's colours (`0xRRGGBB`) and sizes (CSS pixels), written once: the
/// rasterizer draws with them ([`Style::with_pixel_ratio`]) and the canvas-2D
/// renderer reads them from `www/lib/style.js`, generated from this by
/// `tests/generated.rs`. Strain colours are [`STRAIN_RAMP`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Look {
    /// Background.
    pub background: u32,
    /// Constraints (when not coloured by strain).
    pub constraint: u32,
    /// Particles.
    pub particle: u32,
    /// The held particle.
    pub grabbed: u32,
    /// The x axis at the origin.
    pub x_axis: u32,
    /// The y axis at the origin.
    pub y_axis: u32,
    /// Constraint line width.
    pub line_width: f32,
    /// Particle radius.
    pub particle_radius: f32,
    /// Largest particle radius in metres, so particles zoomed far out do not
    /// merge into a blob (0.3 × the 0.2 m grid spacing).
    pub particle_radius_metres: f32,
    /// Smallest particle radius, however far out.
    pub min_particle_radius: f32,
    /// Radius of the held particle.
    pub grabbed_radius: f32,
    /// Length of each axis.
    pub axis_length: f32,
    /// Width of the axes.
    pub axis_width: f32,
    /// Inside of a collider.
    pub collider: u32,
    /// Outline of a collider.
    pub collider_edge: u32,
    /// Width of a collider's outline; the ground's is this, and a band of
    /// [`Look::ground_band`] below it is filled.
    pub collider_edge_width: f32,
    /// Height of the filled band under the ground line.
    pub ground_band: f32,
    /// Inside of a body (a rigid or plastic cluster of particles).
    pub body: u32,
    /// Outline of a body (as wide as a collider's).
    pub body_edge: u32,
}

/// The original demo's look.
pub const LOOK: Look = Look {
    background: 0xffffff,
    constraint: 0x999999,
    particle: 0x1f5fd1,
    grabbed: 0xe01b1b,
    x_axis: 0xe01b1b,
    y_axis: 0x1a9c2a,
    line_width: 1.0,
    particle_radius: 2.5,
    particle_radius_metres: 0.06,
    min_particle_radius: 0.75,
    grabbed_radius: 6.0,
    axis_length: 30.0,
    axis_width: 2.0,
    collider: 0xdfe4ec,
    collider_edge: 0x5b6472,
    collider_edge_width: 2.0,
    ground_band: 12.0,
    body: 0xf3c982,
    body_edge: 0x8a5a12,
};

/// Colours and sizes of the picture, in device pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    /// Background colour.
    pub background: Rgba,
    /// Constraint colour (when not coloured by strain).
    pub constraint: Rgba,
    /// Constraint line width, device pixels.
    pub line_width: f32,
    /// Particle colour.
    pub particle: Rgba,
    /// Particle radius, device pixels (0 draws no particles).
    pub particle_radius: f32,
    /// Grabbed particle colour.
    pub grabbed: Rgba,
    /// Grabbed particle radius, device pixels.
    pub grabbed_radius: f32,
    /// Colours of the x and y axes.
    pub axes: (Rgba, Rgba),
    /// Length of the axes at the origin, device pixels.
    pub axis_length: f32,
    /// Width of the axes, device pixels.
    pub axis_width: f32,
    /// Colour constraints by their stretch (see [`strain_color`]).
    pub strain_colors: bool,
    /// Inside and outline colours of colliders.
    pub collider: (Rgba, Rgba),
    /// Width of a collider's outline, device pixels.
    pub collider_edge_width: f32,
    /// Height of the band under the ground line, device pixels.
    pub ground_band: f32,
    /// Inside and outline colours of bodies.
    pub body: (Rgba, Rgba),
}

impl Style {
    /// [`LOOK`] at a given pixel ratio, with particles of `particle_radius` CSS
    /// pixels (the caller caps it for the zoom, see `LOOK.particle_radius_metres`).
    pub fn with_pixel_ratio(pixel_ratio: f32, particle_radius: f32) -> Style {
        Style {
            background: rgb(LOOK.background),
            constraint: rgb(LOOK.constraint),
            line_width: LOOK.line_width * pixel_ratio,
            particle: rgb(LOOK.particle),
            particle_radius: particle_radius * pixel_ratio,
            grabbed: rgb(LOOK.grabbed),
            grabbed_radius: LOOK.grabbed_radius * pixel_ratio,
            axes: (rgb(LOOK.x_axis), rgb(LOOK.y_axis)),
            axis_length: LOOK.axis_length * pixel_ratio,
            axis_width: LOOK.axis_width * pixel_ratio,
            collider: (rgb(LOOK.collider), rgb(LOOK.collider_edge)),
            collider_edge_width: LOOK.collider_edge_width * pixel_ratio,
            ground_band: LOOK.ground_band * pixel_ratio,
            body: (rgb(LOOK.body), rgb(LOOK.body_edge)),
            strain_colors: false,
        }
    }
}

/// Stretch at which the strain ramp reaches its last colour (100 %).
pub const STRAIN_RAMP_MAX: f32 = 1.0;

/// Stops of the strain colour ramp: (relative stretch, colour). Compressed
/// constraints take the first colour, beyond the last stop the last one.
pub const STRAIN_RAMP: [(f32, u32); 5] = [
    (0.0, 0x4575b4),
    (0.05, 0x74add1),
    (0.2, 0xfee090),
    (0.5, 0xf46d43),
    (STRAIN_RAMP_MAX, 0xa50026),
];

/// The ramp colour of a relative stretch `(length - rest) / rest`.
pub fn strain_color(stretch: f32) -> Rgba {
    rgb(strain_rgb(stretch))
}

/// [`strain_color`] as `0xRRGGBB`: what the canvas-2D renderer gets (through
/// `strainColor` in wasm), so both renderers share one interpolation.
pub fn strain_rgb(stretch: f32) -> u32 {
    let (first, last) = (STRAIN_RAMP[0], STRAIN_RAMP[STRAIN_RAMP.len() - 1]);
    // NaN and compression take the first colour
    if stretch.is_nan() || stretch <= first.0 {
        return first.1;
    }
    if stretch >= last.0 {
        return last.1;
    }
    let upper = STRAIN_RAMP
        .iter()
        .position(|&(s, _)| s > stretch)
        .unwrap_or(STRAIN_RAMP.len() - 1);
    let ((s0, c0), (s1, c1)) = (STRAIN_RAMP[upper - 1], STRAIN_RAMP[upper]);
    let t = (stretch - s0) / (s1 - s0);
    let channel = |shift: u32| {
        let (a, b) = (((c0 >> shift) & 0xff) as f32, ((c1 >> shift) & 0xff) as f32);
        ((a + (b - a) * t).round() as u32) << shift
    };
    channel(16) | channel(8) | channel(0)
}

/// `0xRRGGBB` as CSS `#rrggbb`.
pub fn css_hex(rgb: u32) -> String {
    format!("#{rgb:06x}")
}
