// libxml2 is built with ICU on Debian; its ICU headers clash with the ICU that Foundation
// carries, so the ICU parts are switched off before the other headers are read.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlerror.h>
