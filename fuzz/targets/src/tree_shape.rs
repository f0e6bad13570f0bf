//! `TreeShape::new` on arbitrary dimensions (any widths and heights, including those that
//! overflow sums and shifts): an error or a consistent shape, never a panic or a hang.

use aurum_merkle::{Dimensions, TreeShape};

/// One input of the target: returns if it is fine, panics if it finds a bug.
pub fn run(dims: Vec<(usize, usize)>) {
    let dims: Vec<Dimensions> = dims
        .into_iter()
        .take(64)
        .map(|(width, height)| Dimensions { width, height })
        .collect();
    if let Ok(shape) = TreeShape::new(&dims) {
        let max = dims.iter().map(|d| d.height).max().unwrap();
        assert_eq!(shape.max_height(), max);
        assert!(shape.depth() <= 64);
        assert!(shape.max_cap_height() <= shape.depth());
        for h in 0..=shape.depth() {
            let _ = shape.cap_size(h);
        }
        for m in 0..dims.len() {
            assert!(shape.opened_row(m, max - 1).unwrap() < dims[m].height);
        }
        assert_eq!(shape.opened_row(dims.len(), 0), None);
        assert_eq!(shape.opened_row(0, max), None);
    }
}
