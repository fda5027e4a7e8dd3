// The object the tests' precompiled header is made for (tests/CMakeLists.txt); it holds nothing.
