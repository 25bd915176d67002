// libcurl, loaded when Foundation's URLSession first needs it rather than when Abacus starts
// (see curl_on_demand.c).
#ifndef CCURL_ON_DEMAND_H
#define CCURL_ON_DEMAND_H

/// Loads libcurl if it is not loaded yet. Returns 1 when it is there; otherwise 0, with the
/// loader's reason in `reason` (a static string).
int abacus_curl_load(const char **reason);

#endif
