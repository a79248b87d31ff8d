//! The endpoints controller and RepackSubsets (being written).
