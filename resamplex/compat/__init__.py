"""Front doors with the argument conventions of other libraries (PyTorch, ONNX)."""
