// SQLCipherBench: Swift public API vs raw C vs plaintext (see BENCHMARKS.md).
import CBaseline
print(cb_pool_size())
