#include "dynscope/trajectory/payload.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dyn {

Model withPayload(const Model& model, const Payload& payload) {
  const int frame = model.frameIndex(payload.link);
  if (frame < 0) throw std::invalid_argument("payload: model '" + model.name + "' has no link '" + payload.link + "'");
  if (!(payload.mass >= 0) || !std::isfinite(payload.mass))
    throw std::invalid_argument("payload on '" + payload.link + "': the mass must be a finite number >= 0, got " +
                                std::to_string(payload.mass));
  if (!payload.com.allFinite())
    throw std::invalid_argument("payload on '" + payload.link + "': the centre-of-mass offset is not finite");
  const Frame<double>& f = model.frames[frame];
  if (f.body == 0)
    throw std::invalid_argument("payload: link '" + payload.link +
                                "' is fixed to the base, a payload there moves with no joint");
  Model out = model;
  // placement = frame_X_body: pointToA carries the offset from link-frame to body coordinates.
  const Vec3<double> c = f.placement.pointToA(payload.com);
  out.I[f.body] += Inertia<double>::mcI(payload.mass, c, Mat3<double>::Zero());
  // A payload can give mass to a body that had none: drop the singular-inertia notes it resolves
  // (the same rule as the model builder: the subtree must carry mass or rotational inertia).
  std::vector<double> load(out.N + 1, 0.0);
  for (int i = out.N; i >= 1; --i) {
    load[i] += out.I[i].m + out.I[i].Ibar.trace();
    load[out.parent[i]] += load[i];
  }
  std::vector<int> still;
  for (int i : out.immobileBodies) {
    if (load[i] > 1e-12) {
      const std::string prefix = "joint '" + out.jointNames[i] + "' moves no mass";
      std::erase_if(out.warnings, [&](const std::string& w) { return w.rfind(prefix, 0) == 0; });
    } else {
      still.push_back(i);
    }
  }
  out.immobileBodies = still;
  return out;
}

}  // namespace dyn
