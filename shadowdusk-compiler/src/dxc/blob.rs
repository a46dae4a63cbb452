//! Whether a DXC blob holds any bytes, asked without forming a slice.
//!
//! hassle-rs 0.12's `DxcBlob::as_slice` (and everything built on it: `to_vec`,
//! `get_blob_as_string`) calls `slice::from_raw_parts(GetBufferPointer(), GetBufferSize())`.
//! For an empty blob DXC may return a null pointer, and a slice from a null pointer is undefined
//! behaviour even with length 0. hassle-rs keeps `GetBufferSize` crate-private, so this module
//! calls it through the COM vtable itself: `IDxcBlob` is `IUnknown` (QueryInterface, AddRef,
//! Release) followed by `GetBufferPointer` and `GetBufferSize`, the documented ABI of
//! `dxcapi.h`.

use std::ffi::c_void;

use hassle_rs::DxcBlob;

/// `IDxcBlob::GetBufferSize`'s slot: after IUnknown's three methods and `GetBufferPointer`.
const GET_BUFFER_SIZE: usize = 4;

// `DxcBlob` is hassle-rs's one-field wrapper around an `IDxcBlob`, itself one COM interface
// pointer; the read below relies on that, so a hassle-rs that changes it fails to compile here.
const _: () = assert!(std::mem::size_of::<DxcBlob>() == std::mem::size_of::<*mut c_void>());
const _: () = assert!(std::mem::align_of::<DxcBlob>() == std::mem::align_of::<*mut c_void>());

/// `true` when `blob` has no bytes (so it must not be read with `as_slice`).
pub fn is_empty(blob: &DxcBlob) -> bool {
    size(blob) == 0
}

/// `IDxcBlob::GetBufferSize()`.
fn size(blob: &DxcBlob) -> usize {
    type GetBufferSize = unsafe extern "system" fn(this: *mut c_void) -> usize;
    // SAFETY: `DxcBlob` holds exactly one non-null COM interface pointer (size and alignment
    // asserted above; hassle-rs only builds it from a successful COM out-parameter). A COM
    // interface pointer points at a pointer to its vtable, and slot 4 of an `IDxcBlob` vtable is
    // `GetBufferSize`, which takes only `this` and reads no other memory.
    unsafe {
        let this = *(blob as *const DxcBlob as *const *mut c_void);
        let vtable = *(this as *const *const *const c_void);
        let get_size: GetBufferSize = std::mem::transmute(*vtable.add(GET_BUFFER_SIZE));
        get_size(this)
    }
}
