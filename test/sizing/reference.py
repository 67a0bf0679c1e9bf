#!/usr/bin/env python3
"""Independent reference for the sizing tests (written apart from src/domain/sizing).

Reads JSON on stdin: {"urdf": text, "poses": [{joint: q}], "payloads": [{"link", "mass_kg"}],
"g": 9.80665, "kdl": [{"root": link, "tip": link}]} and prints JSON:
  "fd":  per pose, {joint: dU/dq} by central finite differences of U = sum m g z_com (own FK,
         Python's ElementTree parser), each free joint moving its mimic joints with it;
  "kdl": per chain and pose, {joint: tau} from Orocos KDL ChainDynParam.JntToGravity (PyKDL),
         the chain built from the URDF as kdl_parser does (absent when PyKDL does not import).
"""
import json, math, sys
import xml.etree.ElementTree as ET


def nums(s, n, default):
    if s is None:
        return list(default)
    v = [float(x) for x in s.split()]
    assert len(v) == n, s
    return v


def rpy(r, p, y):
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    rx = [[1, 0, 0], [0, cr, -sr], [0, sr, cr]]
    ry = [[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]]
    rz = [[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]]
    return mm(rz, mm(ry, rx))


def mm(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def mv(a, v):
    return [sum(a[i][k] * v[k] for k in range(3)) for i in range(3)]


def rot_axis(a, q):
    # exp of the skew matrix, by Rodrigues, written out via the outer product form
    n = math.sqrt(sum(x * x for x in a))
    x, y, z = (c / n for c in a)
    c, s = math.cos(q), math.sin(q)
    K = [[0, -z, y], [z, 0, -x], [-y, x, 0]]
    K2 = mm(K, K)
    return [[(1 if i == j else 0) + s * K[i][j] + (1 - c) * K2[i][j] for j in range(3)] for i in range(3)]


def read(text):
    root = ET.fromstring(text)
    links = {}
    for l in root.findall('link'):
        m, com = 0.0, [0.0, 0.0, 0.0]
        inert = l.find('inertial')
        if inert is not None and inert.find('mass') is not None:
            m = float(inert.find('mass').get('value'))
            o = inert.find('origin')
            com = nums(o.get('xyz') if o is not None else None, 3, [0, 0, 0])
        links.setdefault(l.get('name'), (m, com))
    joints = []
    seen_child = set()
    for j in root.findall('joint'):
        if j.get('type') is None:
            continue
        child = j.find('child').get('link')
        if child in seen_child:
            continue
        seen_child.add(child)
        o = j.find('origin')
        xyz = nums(o.get('xyz') if o is not None else None, 3, [0, 0, 0])
        r = nums(o.get('rpy') if o is not None else None, 3, [0, 0, 0])
        ax = j.find('axis')
        mim = j.find('mimic')
        joints.append({
            'name': j.get('name'), 'type': j.get('type').strip(), 'parent': j.find('parent').get('link'), 'child': child,
            'xyz': xyz, 'rpy': r, 'axis': nums(ax.get('xyz') if ax is not None else None, 3, [1, 0, 0]),
            'mimic': None if mim is None else (mim.get('joint'), float(mim.get('multiplier', '1')), float(mim.get('offset', '0'))),
        })
    children = {j['child'] for j in joints}
    roots = [l for l in links if l not in children]
    assert len(roots) == 1, roots
    order, frontier = [], [roots[0]]
    while frontier:
        l = frontier.pop(0)
        for j in joints:
            if j['parent'] == l:
                order.append(j)
                frontier.append(j['child'])
    return links, order, roots[0]


def positions(order, q):
    out = dict(q)
    byname = {j['name']: j for j in order}
    def val(name, depth=0):
        j = byname[name]
        if j['mimic'] is not None and j['type'] != 'fixed':
            d, k, c = j['mimic']
            return k * val(d, depth + 1) + c
        return out.get(name, 0.0)
    return {j['name']: val(j['name']) for j in order if j['type'] in ('revolute', 'continuous', 'prismatic')}


def potential(links, order, root, q, payloads, g):
    qa = positions(order, q)
    R = {root: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}
    P = {root: [0.0, 0.0, 0.0]}
    for j in order:
        Rp, Pp = R[j['parent']], P[j['parent']]
        Rj = mm(Rp, rpy(*j['rpy']))
        Pj = [Pp[i] + mv(Rp, j['xyz'])[i] for i in range(3)]
        v = qa.get(j['name'], 0.0)
        if j['type'] in ('revolute', 'continuous'):
            R[j['child']] = mm(Rj, rot_axis(j['axis'], v))
            P[j['child']] = Pj
        elif j['type'] == 'prismatic':
            n = math.sqrt(sum(x * x for x in j['axis']))
            d = mv(Rj, [a / n * v for a in j['axis']])
            R[j['child']] = Rj
            P[j['child']] = [Pj[i] + d[i] for i in range(3)]
        else:
            R[j['child']], P[j['child']] = Rj, Pj
    U = 0.0
    for name, (m, com) in links.items():
        if name in R and m:
            U += m * g * (P[name][2] + mv(R[name], com)[2])
    for p in payloads:
        U += p['mass_kg'] * g * P[p['link']][2]
    return U


def fd(req):
    links, order, root = read(req['urdf'])
    free = [j['name'] for j in order if j['type'] in ('revolute', 'continuous', 'prismatic') and j['mimic'] is None]
    h = 1e-6
    out = []
    for pose in req['poses']:
        t = {}
        for name in free:
            qp, qm = dict(pose), dict(pose)
            qp[name] = pose.get(name, 0.0) + h
            qm[name] = pose.get(name, 0.0) - h
            t[name] = (potential(links, order, root, qp, req.get('payloads', []), req['g']) - potential(links, order, root, qm, req.get('payloads', []), req['g'])) / (2 * h)
        out.append(t)
    return out


def kdl(req):
    try:
        import PyKDL as K
    except ImportError:
        return None
    links, order, root = read(req['urdf'])
    byChild = {j['child']: j for j in order}
    results = []
    for spec in req['kdl']:
        path = []
        l = spec['tip']
        while l != spec['root']:
            j = byChild[l]
            path.insert(0, j)
            l = j['parent']
        chain = K.Chain()
        names = []
        for j in path:
            F = K.Frame(K.Rotation.RPY(*j['rpy']), K.Vector(*j['xyz']))
            ax = F.M * K.Vector(*j['axis'])
            if j['type'] in ('revolute', 'continuous'):
                jt = K.Joint(j['name'], F.p, ax, K.Joint.RotAxis)
                names.append(j['name'])
            elif j['type'] == 'prismatic':
                jt = K.Joint(j['name'], F.p, ax, K.Joint.TransAxis)
                names.append(j['name'])
            else:
                jt = K.Joint(j['name'])
            m, com = links[j['child']]
            inertia = K.RigidBodyInertia(m, K.Vector(*com), K.RotationalInertia(1e-4, 1e-4, 1e-4, 0, 0, 0))
            chain.addSegment(K.Segment(j['child'], jt, F, inertia))
        solver = K.ChainDynParam(chain, K.Vector(0, 0, -req['g']))
        per_pose = []
        for pose in req['poses']:
            q = K.JntArray(len(names))
            for i, n in enumerate(names):
                q[i] = pose.get(n, 0.0)
            tau = K.JntArray(len(names))
            solver.JntToGravity(q, tau)
            per_pose.append({n: tau[i] for i, n in enumerate(names)})
        results.append(per_pose)
    return results


if __name__ == '__main__':
    req = json.load(sys.stdin)
    out = {'fd': fd(req)}
    if req.get('kdl'):
        out['kdl'] = kdl(req)
    json.dump(out, sys.stdout)
