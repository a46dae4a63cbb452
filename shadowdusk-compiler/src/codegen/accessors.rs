//! Typed setters and getters of value parameters (mgfx-format.md §7.1–§7.2).
//!
//! Each setter performs `EffectParameter.SetValue` and the constant-buffer copy at once, for every
//! record the parameter is placed in: scalars and vectors fill the first lanes of one register,
//! an `RxC` matrix fills `R` lanes of `C` registers (register `k` = column `k` of MonoGame's
//! matrix), array element `i` starts `i * registers-per-element` registers in, ints and bools are
//! stored as floats (MojoShader keeps every constant as a float). Getters read the first record.
//! A parameter with no placement gets a setter that does nothing and a getter that returns its
//! MGFX default.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

use super::docs;
use super::model::{Scalar, Shape, ValueParam};
use super::Ctx;

/// A `usize` literal without suffix.
fn lit(n: usize) -> Literal {
    Literal::usize_unsuffixed(n)
}

/// `#[doc = ...]` attributes, one per line.
pub(crate) fn doc_attrs(lines: &[String]) -> TokenStream {
    let attrs = lines.iter().map(|l| {
        let text = if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        };
        quote!(#[doc = #text])
    });
    quote!(#(#attrs)*)
}

/// The Rust type of one value.
fn value_type(ctx: &Ctx, v: &ValueParam) -> TokenStream {
    let lane = match v.scalar {
        Scalar::Float => quote!(f32),
        Scalar::Int => quote!(i32),
        Scalar::Bool => quote!(bool),
    };
    match v.shape {
        Shape::Scalar => lane,
        Shape::Vector(n) => {
            let n = lit(n);
            quote!([#lane; #n])
        }
        Shape::Matrix { rows, columns } => {
            let k = &ctx.krate;
            let (r, c) = (lit(rows), lit(columns));
            quote!(#k::params::Mat<#r, #c>)
        }
    }
}

/// Whether values arrive through `Into` (float vectors and matrices: glam, mint, arrays).
fn takes_into(v: &ValueParam) -> bool {
    v.scalar == Scalar::Float && !matches!(v.shape, Shape::Scalar)
}

/// The index expression of register `base + i * per` (`i` absent for a single value).
fn reg_index(base: usize, per: usize, var: Option<&Ident>) -> TokenStream {
    let Some(i) = var else {
        let b = lit(base);
        return quote!(#b);
    };
    let scaled = if per == 1 {
        quote!(#i)
    } else {
        let p = lit(per);
        quote!(#i * #p)
    };
    if base == 0 {
        scaled
    } else {
        let b = lit(base);
        quote!(#b + #scaled)
    }
}

/// The register range `index..index + count`, folded to literals for a fixed index (so no
/// `0 + 3` reaches clippy).
fn reg_range(index: &TokenStream, count: usize) -> TokenStream {
    let c = lit(count);
    match index.to_string().parse::<usize>() {
        Ok(start) => {
            let (s, e) = (lit(start), lit(start + count));
            quote!(#s..#e)
        }
        Err(_) => quote!(#index..#index + #c),
    }
}

/// A lane value (f32 expression) from a scalar value expression.
fn lane_in(scalar: Scalar, value: TokenStream) -> TokenStream {
    match scalar {
        Scalar::Float => value,
        Scalar::Int => quote!(#value as f32),
        Scalar::Bool => quote!(if #value { 1.0 } else { 0.0 }),
    }
}

/// A scalar value expression from a lane (f32 place).
fn lane_out(scalar: Scalar, lane: TokenStream) -> TokenStream {
    match scalar {
        Scalar::Float => lane,
        Scalar::Int => quote!(#lane as i32),
        Scalar::Bool => quote!(#lane != 0.0),
    }
}

/// Statements writing `value` (already of the value type) at register `index` of `field`.
fn write_value(v: &ValueParam, field: &Ident, index: &TokenStream) -> TokenStream {
    let value = quote!(value);
    match v.shape {
        Shape::Scalar => {
            let lane = lane_in(v.scalar, value);
            quote!(self.#field[#index][0] = #lane;)
        }
        Shape::Vector(n) if v.scalar == Scalar::Float => {
            if n == 4 {
                quote!(self.#field[#index] = value;)
            } else {
                let n = lit(n);
                quote!(self.#field[#index][..#n].copy_from_slice(&value);)
            }
        }
        Shape::Vector(n) => {
            let stmts = (0..n).map(|c| {
                let c = lit(c);
                let lane = lane_in(v.scalar, quote!(value[#c]));
                quote!(self.#field[#index][#c] = #lane;)
            });
            quote!(#(#stmts)*)
        }
        Shape::Matrix { columns, .. } => {
            let range = reg_range(index, columns);
            quote!(value.write_registers(&mut self.#field[#range]);)
        }
    }
}

/// An expression reading the value at register `index` of `field`.
fn read_value(ctx: &Ctx, v: &ValueParam, field: &Ident, index: &TokenStream) -> TokenStream {
    match v.shape {
        Shape::Scalar => lane_out(v.scalar, quote!(self.#field[#index][0])),
        Shape::Vector(4) if v.scalar == Scalar::Float => quote!(self.#field[#index]),
        Shape::Vector(n) => {
            let lanes = (0..n).map(|c| {
                let c = lit(c);
                lane_out(v.scalar, quote!(self.#field[#index][#c]))
            });
            quote!([#(#lanes),*])
        }
        Shape::Matrix { rows, columns } => {
            let k = &ctx.krate;
            let (r, c) = (lit(rows), lit(columns));
            let range = reg_range(index, columns);
            quote!(#k::params::Mat::<#r, #c>::from_registers(&self.#field[#range]))
        }
    }
}

/// The MGFX default of one value as a Rust expression of the value type.
fn default_value(ctx: &Ctx, v: &ValueParam, data: &[u32]) -> TokenStream {
    let lane = |bits: u32| -> TokenStream {
        let f = f32::from_bits(bits);
        match v.scalar {
            Scalar::Float => docs::float_tokens(bits),
            Scalar::Int => {
                let l = Literal::i32_unsuffixed((f as i32).abs());
                if (f as i32) < 0 {
                    quote!(-#l)
                } else {
                    quote!(#l)
                }
            }
            Scalar::Bool => {
                if f != 0.0 {
                    quote!(true)
                } else {
                    quote!(false)
                }
            }
        }
    };
    match v.shape {
        Shape::Scalar => lane(data.first().copied().unwrap_or(0)),
        Shape::Vector(_) => {
            let lanes = data.iter().map(|b| lane(*b));
            quote!([#(#lanes),*])
        }
        Shape::Matrix { rows, columns } => {
            let k = &ctx.krate;
            // MGFX data is column by column (mgfx-format.md §6.2).
            let rows_tokens = (0..rows).map(|r| {
                let cells = (0..columns)
                    .map(|c| docs::float_tokens(data.get(c * rows + r).copied().unwrap_or(0)));
                quote!([#(#cells),*])
            });
            quote!(#k::params::Mat { rows: [#(#rows_tokens),*] })
        }
    }
}

/// Where the parameter lives, for docs.
fn placement_lines(ctx: &Ctx, v: &ValueParam) -> Vec<String> {
    let used_by_reflection = ctx.info(v.index).is_none_or(|i| i.used);
    if v.placements.is_empty() {
        return vec![
            "**Unused by the shader**: no constant buffer holds it, so setting it changes no \
             register (it stays a parameter so code that sets it keeps compiling when the shader \
             changes)."
                .to_string(),
        ];
    }
    let mut lines = vec!["Registers:".to_string(), String::new()];
    for p in &v.placements {
        let rec = &ctx.plan.records[p.record];
        let field = &ctx.fields[p.record];
        let n = v.registers();
        let range = if n == 1 {
            format!("{field}[{}]", p.register)
        } else {
            format!("{field}[{}..{}]", p.register, p.register + n)
        };
        lines.push(format!(
            "- {} (record {} {}, {})",
            docs::code(&range),
            p.record,
            docs::code(&rec.name),
            docs::shader_list(&rec.shaders)
        ));
    }
    if !used_by_reflection {
        lines.push(String::new());
        lines.push("The compiler reports that no shader reads it.".to_string());
    }
    lines
}

/// Lines shared by a parameter's setter and getter docs.
fn common_lines(ctx: &Ctx, v: &ValueParam) -> Vec<String> {
    let mut lines = vec![
        format!(
            "HLSL: {}",
            docs::declaration_text(v, ctx.info(v.index), &ctx.base)
        ),
        String::new(),
    ];
    lines.extend(placement_lines(ctx, v));
    lines.push(String::new());
    lines.push(format!("Default: {}.", docs::default_text(v)));
    lines
}

/// The semantics note of a setter, by type.
fn semantics_lines(v: &ValueParam) -> Vec<String> {
    let mut out = Vec::new();
    match (v.scalar, v.shape) {
        (_, Shape::Matrix { rows, columns }) => out.push(format!(
            "Takes the HLSL value (`Mat<{rows}, {columns}>`: `rows[r][c]` is `_m{{r}}{{c}}`), or \
             anything that converts into it: `[[f32; {columns}]; {rows}]`, `[f32; {n}]` row \
             after row, MonoGame's `Matrix` (its top-left {rows}×{columns} block, as \
             `SetValue(Matrix)`), and glam or mint matrices with those features. Register `k` \
             receives column `k`, for {columns} registers, as MonoGame uploads it.",
            n = rows * columns
        )),
        (Scalar::Int, _) => {
            out.push("Stored as a float, as MonoGame's OpenGL runtime does.".to_string())
        }
        (Scalar::Bool, _) => {
            out.push("Stored as `1.0` or `0.0`, as MonoGame's OpenGL runtime does.".to_string())
        }
        _ => {}
    }
    out
}

/// Setters and getters of one parameter; `name` is its claimed snake-case base.
pub(crate) fn accessors(ctx: &Ctx, v: &ValueParam, name: &str) -> TokenStream {
    match v.array {
        None => single(ctx, v, name),
        Some(len) => array(ctx, v, name, len),
    }
}

fn with_blank(mut a: Vec<String>, b: Vec<String>) -> Vec<String> {
    if !b.is_empty() {
        a.push(String::new());
        a.extend(b);
    }
    a
}

fn single(ctx: &Ctx, v: &ValueParam, name: &str) -> TokenStream {
    let getter = format_ident!("{}", name);
    let setter = format_ident!("set_{}", name);
    let ty = value_type(ctx, v);
    let hlsl = docs::code(&v.name);
    let kind = docs::code(&docs::hlsl_type(v));

    let mut set_doc = vec![format!("Sets {hlsl} ({kind})."), String::new()];
    set_doc.extend(common_lines(ctx, v));
    let set_doc = doc_attrs(&with_blank(set_doc, semantics_lines(v)));
    let mut get_doc = vec![format!("Returns {hlsl} ({kind})."), String::new()];
    get_doc.extend(common_lines(ctx, v));
    if !v.placements.is_empty() {
        get_doc.push(String::new());
        get_doc.push(format!(
            "Read from {}.",
            docs::code(&ctx.fields[v.placements[0].record].to_string())
        ))
    }
    let get_doc = doc_attrs(&get_doc);

    let input = if takes_into(v) {
        quote!(impl ::core::convert::Into<#ty>)
    } else {
        ty.clone()
    };

    if v.placements.is_empty() {
        let default = default_value(ctx, v, &v.data[0]);
        return quote! {
            #set_doc
            pub fn #setter(&mut self, _value: #input) {}
            #get_doc
            #[allow(clippy::approx_constant)]
            pub fn #getter(&self) -> #ty {
                #default
            }
        };
    }
    let convert = if takes_into(v) {
        quote!(let value: #ty = ::core::convert::Into::into(value);)
    } else {
        quote!()
    };
    let writes = v.placements.iter().map(|p| {
        let idx = reg_index(p.register, 1, None);
        write_value(v, &ctx.fields[p.record], &idx)
    });
    let first = &v.placements[0];
    let read = read_value(
        ctx,
        v,
        &ctx.fields[first.record],
        &reg_index(first.register, 1, None),
    );
    quote! {
        #set_doc
        pub fn #setter(&mut self, value: #input) {
            #convert
            #(#writes)*
        }
        #get_doc
        pub fn #getter(&self) -> #ty {
            #read
        }
    }
}

/// The accessors of an array parameter: a slice setter, an indexed setter, a whole-array
/// getter and an indexed getter.
fn array(ctx: &Ctx, v: &ValueParam, name: &str, len: usize) -> TokenStream {
    let parts = ArrayParts::new(ctx, v, name, len);
    let attrs = ArrayDocs::new(ctx, v, len);
    if v.placements.is_empty() {
        unplaced_array(ctx, v, &parts, &attrs)
    } else {
        placed_array(ctx, v, &parts, &attrs)
    }
}

/// Names and types shared by the four accessors of an array parameter, whether or not the
/// shader places it.
struct ArrayParts {
    getter: Ident,
    getter_at: Ident,
    setter: Ident,
    setter_at: Ident,
    /// The element type.
    ty: TokenStream,
    /// The element count.
    n: Literal,
    /// `<T>` on the slice setter when elements arrive through `Into`.
    generics: TokenStream,
    /// The slice setter's element type.
    elem: TokenStream,
    /// The statement turning an input element into the element type.
    convert: TokenStream,
    where_clause: TokenStream,
    /// The indexed setter's value type.
    input_at: TokenStream,
    /// The error of an index past the end.
    err: TokenStream,
}

impl ArrayParts {
    fn new(ctx: &Ctx, v: &ValueParam, name: &str, len: usize) -> ArrayParts {
        let k = &ctx.krate;
        let ty = value_type(ctx, v);
        let (generics, elem, convert) = if takes_into(v) {
            (
                quote!(<T>),
                quote!(T),
                quote!(let value: #ty = ::core::convert::Into::into(value);),
            )
        } else {
            (quote!(), ty.clone(), quote!())
        };
        let where_clause = if takes_into(v) {
            quote!(where T: ::core::marker::Copy + ::core::convert::Into<#ty>,)
        } else {
            quote!()
        };
        let input_at = if takes_into(v) {
            quote!(impl ::core::convert::Into<#ty>)
        } else {
            ty.clone()
        };
        ArrayParts {
            getter: format_ident!("{}", name),
            getter_at: format_ident!("{}_at", name),
            setter: format_ident!("set_{}", name),
            setter_at: format_ident!("set_{}_at", name),
            ty,
            n: lit(len),
            generics,
            elem,
            convert,
            where_clause,
            input_at,
            err: quote!(#k::params::IndexOutOfRange),
        }
    }
}

/// The `#[doc]` attributes of the four accessors of an array parameter.
struct ArrayDocs {
    set: TokenStream,
    set_at: TokenStream,
    get: TokenStream,
    get_at: TokenStream,
}

impl ArrayDocs {
    fn new(ctx: &Ctx, v: &ValueParam, len: usize) -> ArrayDocs {
        let hlsl = docs::code(&v.name);
        let kind = docs::code(&docs::hlsl_type(v));
        let common = common_lines(ctx, v);
        let semantics = semantics_lines(v);
        let mut set = vec![
            format!("Sets the first `min(values.len(), {len})` elements of {hlsl} ({kind}); later elements keep their values and extra values are ignored."),
            String::new(),
        ];
        set.extend(common.clone());
        let set = doc_attrs(&with_blank(set, semantics.clone()));
        let mut set_at = vec![
            format!("Sets element `index` of {hlsl} ({kind})."),
            String::new(),
        ];
        set_at.extend(common.clone());
        let mut set_at = with_blank(set_at, semantics);
        set_at.extend([
            String::new(),
            "# Errors".to_string(),
            String::new(),
            format!("`IndexOutOfRange` when `index >= {len}`; nothing is written then."),
        ]);
        let set_at = doc_attrs(&set_at);
        let mut get = vec![
            format!("Returns every element of {hlsl} ({kind})."),
            String::new(),
        ];
        get.extend(common.clone());
        let get = doc_attrs(&get);
        let mut get_at = vec![
            format!("Returns element `index` of {hlsl} ({kind}), `None` when `index >= {len}`."),
            String::new(),
        ];
        get_at.extend(common);
        let get_at = doc_attrs(&get_at);
        ArrayDocs {
            set,
            set_at,
            get,
            get_at,
        }
    }
}

/// Accessors of an array no constant buffer holds: setters keep code compiling but write
/// nothing, getters return the MGFX defaults.
fn unplaced_array(ctx: &Ctx, v: &ValueParam, parts: &ArrayParts, attrs: &ArrayDocs) -> TokenStream {
    let ArrayParts {
        getter,
        getter_at,
        setter,
        setter_at,
        ty,
        n,
        generics,
        elem,
        where_clause,
        input_at,
        err,
        ..
    } = parts;
    let ArrayDocs {
        set: set_doc,
        set_at: set_at_doc,
        get: get_doc,
        get_at: get_at_doc,
    } = attrs;
    let defaults = v.data.iter().map(|d| default_value(ctx, v, d));
    quote! {
        #set_doc
        pub fn #setter #generics(&mut self, _values: &[#elem]) #where_clause {}
        #set_at_doc
        pub fn #setter_at(&mut self, index: usize, _value: #input_at) -> ::core::result::Result<(), #err> {
            if index < #n {
                ::core::result::Result::Ok(())
            } else {
                ::core::result::Result::Err(#err { index, len: #n })
            }
        }
        #get_doc
        #[allow(clippy::approx_constant)]
        pub fn #getter(&self) -> [#ty; #n] {
            [#(#defaults),*]
        }
        #get_at_doc
        pub fn #getter_at(&self, index: usize) -> ::core::option::Option<#ty> {
            if index < #n {
                ::core::option::Option::Some(self.#getter()[index])
            } else {
                ::core::option::Option::None
            }
        }
    }
}

/// Accessors of a placed array: element `i` is written to every record holding the array
/// and read back from the first.
fn placed_array(ctx: &Ctx, v: &ValueParam, parts: &ArrayParts, attrs: &ArrayDocs) -> TokenStream {
    let ArrayParts {
        getter,
        getter_at,
        setter,
        setter_at,
        ty,
        n,
        generics,
        elem,
        convert,
        where_clause,
        input_at,
        err,
    } = parts;
    let ArrayDocs {
        set: set_doc,
        set_at: set_at_doc,
        get: get_doc,
        get_at: get_at_doc,
    } = attrs;
    let per = v.shape.registers();
    let i = Ident::new("i", Span::call_site());
    let index_ident = Ident::new("index", Span::call_site());
    let writes_i = v.placements.iter().map(|p| {
        let idx = reg_index(p.register, per, Some(&i));
        write_value(v, &ctx.fields[p.record], &idx)
    });
    let writes_index: Vec<TokenStream> = v
        .placements
        .iter()
        .map(|p| {
            let idx = reg_index(p.register, per, Some(&index_ident));
            write_value(v, &ctx.fields[p.record], &idx)
        })
        .collect();
    let first = &v.placements[0];
    let read_i = read_value(
        ctx,
        v,
        &ctx.fields[first.record],
        &reg_index(first.register, per, Some(&i)),
    );
    let read_index = read_value(
        ctx,
        v,
        &ctx.fields[first.record],
        &reg_index(first.register, per, Some(&index_ident)),
    );

    quote! {
        #set_doc
        pub fn #setter #generics(&mut self, values: &[#elem]) #where_clause {
            let count = ::core::cmp::min(values.len(), #n);
            for (#i, &value) in ::core::iter::Iterator::enumerate(values[..count].iter()) {
                #convert
                #(#writes_i)*
            }
        }
        #set_at_doc
        pub fn #setter_at(&mut self, index: usize, value: #input_at) -> ::core::result::Result<(), #err> {
            if index >= #n {
                return ::core::result::Result::Err(#err { index, len: #n });
            }
            #convert
            #(#writes_index)*
            ::core::result::Result::Ok(())
        }
        #get_doc
        pub fn #getter(&self) -> [#ty; #n] {
            ::core::array::from_fn(|#i| #read_i)
        }
        #get_at_doc
        pub fn #getter_at(&self, index: usize) -> ::core::option::Option<#ty> {
            if index < #n {
                ::core::option::Option::Some(#read_index)
            } else {
                ::core::option::Option::None
            }
        }
    }
}
