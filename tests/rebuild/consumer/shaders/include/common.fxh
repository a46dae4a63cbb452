// Rebuild fixture: included by glow.fx only.
float4 GlowColor = float4(1, 0.5, 0.25, 1);
float4 Shade(float4 c) { return c * GlowColor; }
