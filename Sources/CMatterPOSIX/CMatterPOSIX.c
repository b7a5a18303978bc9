#include "CMatterPOSIX.h"

struct cmsghdr *CMatterPOSIX_CMSG_FIRSTHDR(const struct msghdr *mhdr) { return CMSG_FIRSTHDR(mhdr); }
struct cmsghdr *CMatterPOSIX_CMSG_NXTHDR(struct msghdr *mhdr, struct cmsghdr *cmsg) { return CMSG_NXTHDR(mhdr, cmsg); }
const void *CMatterPOSIX_CMSG_DATA(const struct cmsghdr *cmsg) { return CMSG_DATA(cmsg); }
size_t CMatterPOSIX_CMSG_SPACE(size_t payload) { return CMSG_SPACE(payload); }
size_t CMatterPOSIX_CMSG_LEN(size_t payload) { return CMSG_LEN(payload); }
