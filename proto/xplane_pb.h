/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Short names for the protobuf-c types generated from xplane.proto, for the
 * code that builds XSpace messages (capture's converter, the trace generators
 * and their tests). The reader (src/xp) keeps its own names.
 */
#ifndef XPLANE_PB_H
#define XPLANE_PB_H

#include "xplane.pb-c.h"

typedef Tensorflow__Profiler__XSpace XSpace;
typedef Tensorflow__Profiler__XPlane XPlane;
typedef Tensorflow__Profiler__XLine XLine;
typedef Tensorflow__Profiler__XEvent XEvent;
typedef Tensorflow__Profiler__XStat XStat;
typedef Tensorflow__Profiler__XEventMetadata XEventMetadata;
typedef Tensorflow__Profiler__XStatMetadata XStatMetadata;
typedef Tensorflow__Profiler__XPlane__EventMetadataEntry EventMetadataEntry;
typedef Tensorflow__Profiler__XPlane__StatMetadataEntry StatMetadataEntry;

#endif
