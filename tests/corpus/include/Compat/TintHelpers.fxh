// Header for compat_pp_include_case.fx, included with different letter case.
float4 ApplyTint(float4 c, float4 tint)
{
    return c * tint;
}
