//! The ClusterIP / NodePort bitmap on a canvas (being written).
