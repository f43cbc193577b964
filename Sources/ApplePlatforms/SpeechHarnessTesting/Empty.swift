// On Apple platforms the test helpers do not exist (the real frameworks need no stand-ins);
// guard their use with `#if os(Linux)`.
