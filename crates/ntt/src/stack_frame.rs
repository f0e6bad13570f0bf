//! Steps of a kernel run in stack frames of their own: one generic [`Step`] trait, the
//! [`step!`] macro that declares a step for a generic function, and [`in_own_frame`].
//!
//! A kernel's body is `#[inline(always)]` all the way down, so that it is compiled for the
//! backend it was dispatched to. Optimised, that costs nothing. Unoptimised (a dependent's
//! `dev` or `test` build), every inlined copy keeps its own stack slots in the caller's frame,
//! and a pass that inlines the radix-2 and radix-4 layers of both flows with their row-width
//! variants needs more than a rayon thread's 2 MiB of stack. A step run through
//! [`in_own_frame`] enters the backend's `#[target_feature]` entry point again — a real call —
//! so only one copy's frame is on the stack at a time; optimised, it is one call per layer
//! (pair) and task. The code inside is the same.

use core::marker::PhantomData;

use aurum_goldilocks::{Kernel, PackedField};

/// A generic step of a kernel (a function of the packed type) taking the arguments `A` (a
/// tuple). Declared with [`step!`], run with [`in_own_frame`].
pub(crate) trait Step<A> {
    /// The step, compiled for `P`.
    fn run<P: PackedField>(args: A);
}

/// A step and its arguments, as the kernel a backend entry point runs.
struct Frame<S, A> {
    args: A,
    step: PhantomData<S>,
}

impl<S: Step<A>, A> Kernel for Frame<S, A> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        S::run::<P>(self.args);
    }
}

/// Runs step `S` on `args` through the entry point of `P`'s backend (the backend the running
/// kernel was entered on), so in a stack frame of its own.
#[inline(always)]
pub(crate) fn in_own_frame<P: PackedField, S: Step<A>, A>(args: A) {
    aurum_goldilocks::in_own_frame(
        P::BACKEND,
        Frame::<S, A> {
            args,
            step: PhantomData,
        },
    );
}

/// Declares `$name`, the [`Step`] that calls the generic function `$body::<P>` with its
/// arguments (their types may use the lifetimes after `for`):
/// `step!(Name: for<'a> body(x: &'a mut [Goldilocks], n: usize));`, run with
/// `in_own_frame::<P, Name, _>((x, n))`. With const parameters,
/// `step!(Name<const A: bool>: for<'a> body(…))` calls `body::<P, A>` and runs as
/// `in_own_frame::<P, Name<true>, _>(…)`.
macro_rules! step {
    // With a type parameter after the const ones, after a `;` (a row shape, `radix4::Shape`).
    (
        $(#[$attr:meta])*
        $name:ident <$(const $c:ident: $ct:ty),+; $t:ident: $bound:path>:
            for<$($lt:lifetime),*> $($body:ident)::+($($arg:ident: $ty:ty),* $(,)?)
    ) => {
        $(#[$attr])*
        pub(crate) struct $name<$(const $c: $ct),+, $t>(core::marker::PhantomData<$t>);

        impl<$($lt,)* $(const $c: $ct,)+ $t: $bound> $crate::stack_frame::Step<($($ty,)*)>
            for $name<$($c),+, $t>
        {
            #[inline(always)]
            fn run<P: aurum_goldilocks::PackedField>(($($arg,)*): ($($ty,)*)) {
                $($body)::+::<P, $($c,)+ $t>($($arg),*);
            }
        }
    };
    (
        $(#[$attr:meta])*
        $name:ident $(<$(const $c:ident: $ct:ty),+>)?:
            for<$($lt:lifetime),*> $($body:ident)::+($($arg:ident: $ty:ty),* $(,)?)
    ) => {
        $(#[$attr])*
        pub(crate) struct $name $(<$(const $c: $ct),+>)?;

        impl<$($lt,)* $($(const $c: $ct),+)?> $crate::stack_frame::Step<($($ty,)*)>
            for $name $(<$($c),+>)?
        {
            #[inline(always)]
            fn run<P: aurum_goldilocks::PackedField>(($($arg,)*): ($($ty,)*)) {
                $($body)::+::<P $($(, $c)+)?>($($arg),*);
            }
        }
    };
}

pub(crate) use step;
