/** Test-written URDF chains for the sizing tests (synthetic; no third-party file copied). */

/** A chain with rotated joint origins and inertial rpy, a fixed joint in the middle, a prismatic and a continuous joint. */
export const ROTATED_CHAIN = `<?xml version="1.0"?>
<robot name="rotated_chain">
  <link name="base"><inertial><mass value="5"/><origin xyz="0 0 0.05"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="l1"><inertial><origin xyz="0.02 0.01 0.15" rpy="0.3 -0.2 0.9"/><mass value="1.7"/><inertia ixx="0.01" iyy="0.02" izz="0.03" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="l2"><inertial><origin xyz="0.12 -0.03 0.0" rpy="1.1 0.4 -0.6"/><mass value="1.1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="bracket"><inertial><origin xyz="0.01 0 0.02"/><mass value="0.25"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="slide"><inertial><origin xyz="0 0.02 0.03" rpy="0 0.5 0"/><mass value="0.6"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="wrist"><inertial><origin xyz="0.03 0.0 -0.01" rpy="-0.7 0 0.2"/><mass value="0.35"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="tool"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><origin xyz="0 0 0.1" rpy="0.1 0.2 0.3"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="50" velocity="3"/></joint>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/><origin xyz="0.01 0 0.3" rpy="1.5707963 0 0.4"/><axis xyz="0 1 1"/><limit lower="-2" upper="2" effort="40" velocity="3"/></joint>
  <joint name="fix" type="fixed"><parent link="l2"/><child link="bracket"/><origin xyz="0.25 0 0" rpy="0 -0.5 0.25"/></joint>
  <joint name="lift" type="prismatic"><parent link="bracket"/><child link="slide"/><origin xyz="0.02 0.01 0.03" rpy="0.2 0 0"/><axis xyz="0.6 0 0.8"/><limit lower="0" upper="0.1" effort="200" velocity="0.2"/></joint>
  <joint name="roll" type="continuous"><parent link="slide"/><child link="wrist"/><origin xyz="0 0 0.08" rpy="0 0.3 -0.2"/><axis xyz="1 0 0"/></joint>
  <joint name="tool_joint" type="fixed"><parent link="wrist"/><child link="tool"/><origin xyz="0.05 0 0"/></joint>
</robot>
`;

/** A branching tree with a gripper whose second finger is a mimic joint (multiplier -1.5, offset 0.1), and a mimic of that mimic. */
export const MIMIC_TREE = `<?xml version="1.0"?>
<robot name="mimic_tree">
  <link name="base"/>
  <link name="arm"><inertial><origin xyz="0.1 0 0.2" rpy="0.4 0.4 0"/><mass value="2"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="palm"><inertial><origin xyz="0.02 0 0"/><mass value="0.5"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="finger_a"><inertial><origin xyz="0.04 0.01 0"/><mass value="0.2"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="finger_b"><inertial><origin xyz="0.05 -0.01 0.01"/><mass value="0.3"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="tip_b"><inertial><origin xyz="0.02 0 0"/><mass value="0.1"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="side"><inertial><origin xyz="0 0.1 0"/><mass value="0.8"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/><origin xyz="0 0 0.2" rpy="0 0.3 0"/><axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="30" velocity="2"/></joint>
  <joint name="side_joint" type="revolute"><parent link="base"/><child link="side"/><origin xyz="0 0 0.1"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="30" velocity="2"/></joint>
  <joint name="wrist" type="revolute"><parent link="arm"/><child link="palm"/><origin xyz="0.3 0 0.1" rpy="0.2 0 0.1"/><axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="10" velocity="2"/></joint>
  <joint name="finger_a_joint" type="revolute"><parent link="palm"/><child link="finger_a"/><origin xyz="0.05 0.02 0"/><axis xyz="0 0 1"/><limit lower="0" upper="0.8" effort="5" velocity="2"/></joint>
  <joint name="finger_b_joint" type="revolute"><parent link="palm"/><child link="finger_b"/><origin xyz="0.05 -0.02 0" rpy="0 0.6 0"/><axis xyz="0 1 0"/><limit lower="-1.2" upper="0.1" effort="5" velocity="2"/><mimic joint="finger_a_joint" multiplier="-1.5" offset="0.1"/></joint>
  <joint name="tip_b_joint" type="revolute"><parent link="finger_b"/><child link="tip_b"/><origin xyz="0.06 0 0"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="5" velocity="2"/><mimic joint="finger_b_joint" multiplier="0.5"/></joint>
</robot>
`;
