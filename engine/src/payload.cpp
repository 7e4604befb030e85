#include "dynscope/trajectory/payload.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "dynscope/io/model_check.hpp"

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
  // A payload can give mass to a body that had none: drop the massless-subtree findings it resolves.
  const std::vector<int> still = findImmobileBodies(out);
  std::erase_if(out.findings, [&](const Finding& x) {
    return x.code == "mass.massless_subtree" && std::find(still.begin(), still.end(), x.body) == still.end();
  });
  out.immobileBodies = still;
  return out;
}

}  // namespace dyn
