// Linked only into the static gpuforensics-collect (GPUFORENSICS_STATIC=ON).
//
// libarchive's table of write formats (archive_write_set_format.o) names
// every format's setter, so a static link pulls in the xar writer and, with
// it, libxml2 and ICU's 31 MB data table, although a bundle is only ever
// tar. Defined here, the xar setter satisfies that table before the archive
// is searched; asking for xar fails, as it would with xar left out of
// libarchive's build.
#include <archive.h>

#include <cerrno>

int archive_write_set_format_xar(struct archive* a) {
  archive_set_error(a, EINVAL, "xar is not part of the static gpuforensics-collect");
  return ARCHIVE_FATAL;
}
