//! Vectors of plain integers at 32-byte boundaries, the storage of the accumulators and of the
//! weights the vector kernels read.

/// Plain integers that [`Aligned`] may hold (every bit pattern is a value).
pub trait Plain: Copy + Default + PartialEq + std::fmt::Debug + sealed::Sealed {}
impl Plain for i8 {}
impl Plain for i16 {}
impl Plain for i32 {}
mod sealed {
    pub trait Sealed {}
    impl Sealed for i8 {}
    impl Sealed for i16 {}
    impl Sealed for i32 {}
}

/// 32 bytes at a 32-byte boundary: the unit of [`Aligned`]'s storage.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Block([u8; 32]);

/// A vector of plain integers starting at a 32-byte boundary (it derefs to a slice), so that
/// the vector kernels load and store whole registers at aligned addresses (the x86-64-v2 build
/// splits unaligned 32-byte loads in two). The storage past the length stays zero.
#[derive(Default)]
pub struct Aligned<T: Plain> {
    blocks: Vec<Block>,
    len: usize,
    _t: std::marker::PhantomData<T>,
}

impl<T: Plain> Aligned<T> {
    /// `len` zeros.
    pub fn zeros(len: usize) -> Aligned<T> {
        let blocks = vec![Block::default(); (len * std::mem::size_of::<T>()).div_ceil(32)];
        Aligned { blocks, len, _t: std::marker::PhantomData }
    }

    /// A copy of `v`.
    pub fn from_slice(v: &[T]) -> Aligned<T> {
        let mut a = Aligned::zeros(v.len());
        a.copy_from_slice(v);
        a
    }
}

impl<T: Plain> std::ops::Deref for Aligned<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: the blocks hold at least `len` values of `T` (any bit pattern is one), at an
        // alignment of 32, which is at least `T`'s.
        unsafe { std::slice::from_raw_parts(self.blocks.as_ptr() as *const T, self.len) }
    }
}

impl<T: Plain> std::ops::DerefMut for Aligned<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `self` is borrowed mutably.
        unsafe { std::slice::from_raw_parts_mut(self.blocks.as_mut_ptr() as *mut T, self.len) }
    }
}

impl<T: Plain> Clone for Aligned<T> {
    fn clone(&self) -> Self {
        Aligned { blocks: self.blocks.clone(), len: self.len, _t: std::marker::PhantomData }
    }

    /// Reuses this vector's memory.
    fn clone_from(&mut self, source: &Self) {
        self.blocks.clone_from(&source.blocks);
        self.len = source.len;
    }
}

impl<T: Plain> PartialEq for Aligned<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Plain + Eq> Eq for Aligned<T> {}

impl<T: Plain> std::fmt::Debug for Aligned<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}
