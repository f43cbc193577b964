// Only the G.722 codec is needed (decoding Asterisk's wideband prompts); the umbrella header
// would pull in libtiff for fax support.
#include <stdint.h>
#include <inttypes.h>
#include <spandsp/telephony.h>
#include <spandsp/g722.h>
