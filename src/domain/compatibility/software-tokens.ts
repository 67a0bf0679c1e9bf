/**
 * Software mentions in the free fields (mostly `interfaces`): ROS, SDKs, APIs and frameworks.
 *
 * - ROS: "ROS" (generation not stated), "ROS1"/"ROS 1", "ROS2"/"ROS 2" (an optional distro word may
 *   follow, e.g. "ROS 2 Humble"). "ROS/ROS2" is split by the caller into "ROS" and "ROS2".
 * - SDK mentions: any piece with the word SDK or API, or one of the software names seen in the
 *   catalogue's interfaces field (Python, PyTorch, LeRobot, MuJoCo, ...).
 * - A mention is generic ("SDK", "Python SDK", "Python API", "Custom SDK", "Linux SDK", "BLE API")
 *   when nothing but generic words remain once SDK/API/language/OS words are removed: it is the
 *   vendor's own SDK, and two generic mentions name the same SDK only for the same manufacturer.
 *   Otherwise it is named ("Dynamixel SDK", "Orbbec SDK", "LeRobot") and equal names match.
 */
const ROS_RE = /^ROS\s*([12])?(?:\s+[A-Za-z]+)?$/i;
const SDK_WORD_RE = /\b(?:SDK|API)\b/i;
const SOFTWARE_NAMES = ['python', 'pytorch', 'lerobot', 'lerobot dataset', 'mujoco', 'isaac sim', 'grpc', 'zmq', 'zeromq', 'webrtc', 'vrpn', 'motive', 'shogun', 'nexus'];
const GENERIC_WORDS = new Set(['sdk', 'api', 'apis', 'python', 'c', 'c++', 'linux', 'windows', 'custom', 'ble', 'rest', 'http', 'web', 'mobile', 'and']);

export type RosMention = { generation: 'ros1' | 'ros2' | null };

/** A ROS mention, or null. */
export function rosMention(piece: string): RosMention | null {
  const m = ROS_RE.exec(piece.trim());
  if (!m) return null;
  return { generation: m[1] === '1' ? 'ros1' : m[1] === '2' ? 'ros2' : null };
}

const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** SDK / API / framework mention (not ROS). */
export function isSdkMention(piece: string): boolean {
  const f = fold(piece);
  return SDK_WORD_RE.test(piece) || SOFTWARE_NAMES.includes(f) || /\bstudio$/.test(f);
}

export function isSoftwareMention(piece: string): boolean {
  return rosMention(piece) !== null || isSdkMention(piece);
}

/** The comparison key of an SDK mention; generic ones are keyed by manufacturer, or unmatched. */
export function sdkKey(piece: string, manufacturer: string | null): string | null {
  const f = fold(piece);
  const rest = f.split(' ').filter((w) => !GENERIC_WORDS.has(w));
  if (rest.length > 0) return `named:${f}`;
  return manufacturer && manufacturer.trim() !== '' ? `vendor:${fold(manufacturer)}:${f}` : null;
}
