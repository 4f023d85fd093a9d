// One plane per process and per sub-process: its own flow elements laid out by ELK (layered, left to right,
// orthogonal flows), boundary events as fixed ports on the bottom edge of their host.
import ELK from 'elkjs/lib/elk.bundled.js';
import { EMBEDDED, externalLabelSize, embeddedLines } from './text.mjs';

const EVENT = 36;
const GATEWAY = 50;
// clearance: the room above and below the name that the type icon and the markers take
const TASK = { width: 100, height: 80, maxWidth: 180, clearance: 26 };
// boundary events sit far enough apart on their host that each one's name fits between its flow and the next one's
const BOUNDARY_MIN_PITCH = 70;
const BOUNDARY_INSET = 30;
const BOUNDARY_GAP = 14;
const LABEL_GAP = 4;
const STACKED_LABEL_GAP = 6;

const ROOT_OPTIONS = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.padding': '[top=40,left=40,bottom=40,right=40]',
  'elk.spacing.nodeNode': '45',
  'elk.layered.spacing.nodeNodeBetweenLayers': '40',
  'elk.spacing.edgeNode': '20',
  'elk.layered.spacing.edgeNodeBetweenLayers': '15',
  'elk.spacing.edgeEdge': '16',
  'elk.layered.spacing.edgeEdgeBetweenLayers': '16',
  'elk.spacing.edgeLabel': '4',
  'elk.spacing.labelNode': '6',
  'elk.spacing.labelPortHorizontal': String(LABEL_GAP),
  'elk.spacing.labelPortVertical': String(LABEL_GAP),
  'elk.spacing.labelLabel': '4',
  'elk.spacing.portPort': '40',
  'elk.edgeLabels.placement': 'CENTER',
  // a condition's name next to its gateway, not in the middle of a long flow
  'elk.layered.edgeLabels.centerLabelPlacementStrategy': 'TAIL_LAYER',
  'elk.layered.mergeEdges': 'true',
  // the order of the XML is the order an operator reads the runbook in: keep it where the layout allows
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.layered.cycleBreaking.strategy': 'MODEL_ORDER',
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  'elk.layered.nodePlacement.bk.fixedAlignment': 'BALANCED',
  // shorter flows where a node can move along its row without crossing anything
  'elk.layered.compaction.postCompaction.strategy': 'EDGE_LENGTH',
  'elk.separateConnectedComponents': 'false'
};
const NODE_OPTIONS = {
  'elk.nodeLabels.placement': 'OUTSIDE V_BOTTOM H_CENTER'
};

const is = (element, type) => element.$instanceOf(type);

/** Every plane of the file: one per process, then one per sub-process (collapsed in its parent). */
export async function layoutDefinitions(definitions) {
  const processes = (definitions.rootElements || []).filter(e => is(e, 'bpmn:Process'));
  if ((definitions.rootElements || []).some(e => is(e, 'bpmn:Collaboration'))) {
    throw new Error('collaborations (pools, lanes) are not laid out by this tool');
  }
  const planes = [];
  const elk = new ELK();
  for (const process of processes) {
    await addPlanes(process, elk, planes);
  }
  return planes;
}

async function addPlanes(container, elk, planes) {
  rejectArtifacts(container);
  const flowElements = container.flowElements || [];
  planes.push(await layoutContainer(container, flowElements, elk));
  for (const subProcess of flowElements.filter(e => is(e, 'bpmn:SubProcess'))) {
    await addPlanes(subProcess, elk, planes);
  }
}

function rejectArtifacts(container) {
  if ((container.artifacts || []).length) {
    throw new Error(`${container.id}: text annotations and groups are not laid out by this tool`);
  }
  const data = (container.flowElements || []).filter(e => is(e, 'bpmn:DataObjectReference') || is(e, 'bpmn:DataStoreReference'));
  if (data.length) {
    throw new Error(`${data[0].id}: data objects and stores are not laid out by this tool`);
  }
}

async function layoutContainer(container, flowElements, elk) {
  const nodes = new Map();
  for (const element of flowElements) {
    if (is(element, 'bpmn:FlowNode') && !is(element, 'bpmn:BoundaryEvent')) {
      nodes.set(element.id, elkNode(element));
    }
  }
  for (const boundary of flowElements.filter(e => is(e, 'bpmn:BoundaryEvent'))) {
    const host = nodes.get(boundary.attachedToRef.id);
    if (!host) {
      throw new Error(`${boundary.id}: attached to ${boundary.attachedToRef.id}, which is not in the same (sub-)process`);
    }
    host.ports.push(elkPort(boundary));
  }
  const flows = flowElements.filter(e => is(e, 'bpmn:SequenceFlow'));
  const { order, back } = readingOrder([...nodes.keys()], flows);
  for (const node of nodes.values()) {
    addFlowPorts(node, flows, back);
  }
  const children = order.map(id => nodes.get(id));
  const sorted = [...flows].sort((a, b) => rank(a, order) - rank(b, order));
  const edges = [...parallelGroups(sorted).values()].map(group => elkEdge(group, back));
  const graph = { id: container.id, layoutOptions: ROOT_OPTIONS, children, edges };
  const laidOut = await elk.layout(graph);
  return planeOf(container, flowElements, laidOut);
}

/** Where a flow's host node stands in the reading order (a boundary event's flows leave from its host). */
function rank(flow, order) {
  return order.indexOf(hostOf(flow.sourceRef).id);
}

function hostOf(node) {
  return is(node, 'bpmn:BoundaryEvent') ? node.attachedToRef : node;
}

/**
 * The nodes in the order an operator reads the procedure, and the flows that go back (retry, poll again): a
 * depth-first walk from the start finds the flows back to a node still on the walk; without them the flows form no
 * cycle, and a topological order of the rest, taking nodes in the walk's order where there is a choice, puts every
 * other flow forward. ELK keeps this order, so the main path runs left to right.
 */
function readingOrder(ids, flows) {
  const outgoing = new Map(ids.map(id => [id, []]));
  // normal flows first, then the boundary events' ones: the exceptional paths come after the main one
  const byHost = [...flows.filter(f => !is(f.sourceRef, 'bpmn:BoundaryEvent')),
    ...flows.filter(f => is(f.sourceRef, 'bpmn:BoundaryEvent'))];
  for (const flow of byHost) {
    outgoing.get(hostOf(flow.sourceRef).id).push(flow);
  }
  const walked = new Map();
  const back = new Set();
  const onPath = new Set();
  const walk = start => {
    const stack = [[start, 0]];
    walked.set(start, walked.size);
    onPath.add(start);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const leaving = outgoing.get(top[0]);
      if (top[1] === leaving.length) {
        onPath.delete(top[0]);
        stack.pop();
        continue;
      }
      const flow = leaving[top[1]++];
      const target = flow.targetRef.id;
      if (onPath.has(target)) {
        back.add(flow.id);
      } else if (!walked.has(target)) {
        walked.set(target, walked.size);
        onPath.add(target);
        stack.push([target, 0]);
      }
    }
  };
  const hasIncoming = new Set(flows.map(f => f.targetRef.id));
  for (const id of ids.filter(id => !hasIncoming.has(id))) {
    walk(id);
  }
  for (const id of ids.filter(id => !walked.has(id))) {
    walk(id);
  }
  const waiting = new Map(ids.map(id => [id, 0]));
  for (const flow of flows.filter(f => !back.has(f.id))) {
    waiting.set(flow.targetRef.id, waiting.get(flow.targetRef.id) + 1);
  }
  const ready = ids.filter(id => waiting.get(id) === 0);
  const order = [];
  while (ready.length) {
    ready.sort((a, b) => walked.get(a) - walked.get(b));
    const next = ready.shift();
    order.push(next);
    for (const flow of outgoing.get(next).filter(f => !back.has(f.id))) {
      const target = flow.targetRef.id;
      waiting.set(target, waiting.get(target) - 1);
      if (waiting.get(target) === 0) {
        ready.push(target);
      }
    }
  }
  return { order, back };
}

function elkNode(element) {
  const node = { id: element.id, ports: [], labels: [], layoutOptions: { ...NODE_OPTIONS } };
  if (is(element, 'bpmn:Event')) {
    Object.assign(node, { width: EVENT, height: EVENT });
  } else if (is(element, 'bpmn:Gateway')) {
    Object.assign(node, { width: GATEWAY, height: GATEWAY });
  } else {
    Object.assign(node, activitySize(element.name || ''));
    node.markers = markerCount(element);
  }
  if (element.name && (is(element, 'bpmn:Event') || is(element, 'bpmn:Gateway'))) {
    node.labels.push({ id: element.id + '_label', text: element.name, ...externalLabelSize(element.name) });
  }
  return node;
}

/**
 * Room for the name clear of the type icon (top left) and the markers (bottom centre): two lines fit a 80 px high
 * task, so the task widens up to TASK.maxWidth for that, and grows taller beyond.
 */
function activitySize(name) {
  let width = TASK.width;
  while (width < TASK.maxWidth && embeddedLines(name, width) > 2) {
    width += 20;
  }
  const lines = embeddedLines(name, width);
  return { width, height: Math.max(TASK.height, Math.ceil(lines * EMBEDDED.fontSize * EMBEDDED.lineHeight + 2 * TASK.clearance)) };
}

/** The markers at the bottom of an activity: collapsed sub-process or call, and loop or multi-instance. */
function markerCount(element) {
  const collapsed = is(element, 'bpmn:SubProcess') || is(element, 'bpmn:CallActivity') ? 1 : 0;
  return collapsed + (element.loopCharacteristics ? 1 : 0);
}

function elkPort(boundary) {
  const port = {
    id: boundary.id, width: EVENT, height: EVENT, labels: [],
    layoutOptions: { 'elk.port.side': 'SOUTH' }
  };
  if (boundary.name) {
    port.labels.push({ id: boundary.id + '_label', text: boundary.name, ...externalLabelSize(boundary.name) });
  }
  return port;
}

/**
 * Every flow enters a node mid-left and leaves it mid-right, as in a hand-drawn BPMN diagram; a flow that goes back
 * (retry, poll again) leaves its source from below and comes into its target from below, so a loop reads as a loop
 * and never runs along the forward flows. Boundary events sit along the bottom edge of their host, each name right
 * of its event and clear of the next event's flow; a host with boundary events takes its loops from above, and grows
 * wide enough that the last name ends left of its corner (where bpmn-js puts a sub-process's drill-down button) and
 * no event covers the markers at the middle of the bottom edge.
 */
function addFlowPorts(node, flows, back) {
  const boundaries = node.ports;
  const ends = flows.map(f => ({ flow: f, source: hostOf(f.sourceRef).id, target: f.targetRef.id }));
  const loopsOut = ends.some(e => e.source === node.id && back.has(e.flow.id) && !is(e.flow.sourceRef, 'bpmn:BoundaryEvent'));
  const loopsIn = ends.some(e => e.target === node.id && back.has(e.flow.id));
  const loopSide = boundaries.length ? 'NORTH' : 'SOUTH';
  const port = (id, side) => ({ id, width: 0, height: 0, layoutOptions: { 'elk.port.side': side } });
  node.ports = [port(inPort(node.id), 'WEST'), port(outPort(node.id), 'EAST')];
  if (loopsIn) node.ports.push(port(loopInPort(node.id), loopSide));
  if (loopsOut) node.ports.push(port(loopOutPort(node.id), loopSide));
  if ((loopsIn || loopsOut) && loopSide === 'SOUTH') {
    // the loop leaves or enters below, where the name would be
    node.layoutOptions['elk.nodeLabels.placement'] = 'OUTSIDE V_TOP H_CENTER';
  }
  node.layoutOptions['elk.portConstraints'] = 'FIXED_SIDE';
  node.layoutOptions['elk.portAlignment.default'] = 'CENTER';
  if (boundaries.length) {
    placeBoundaryEvents(node, boundaries);
  }
}

function placeBoundaryEvents(node, boundaries) {
  const markers = markerZone(node);
  let x = BOUNDARY_INSET;
  for (const boundary of boundaries) {
    if (markers && x + EVENT > node.width / 2 - markers && x < node.width / 2 + markers) {
      x = node.width / 2 + markers + LABEL_GAP;
    }
    boundary.x = x;
    boundary.y = node.height - EVENT / 2;
    boundary.layoutOptions['elk.port.borderOffset'] = String(-EVENT / 2);
    const labelWidth = boundary.labels.length ? boundary.labels[0].width : 0;
    x += Math.max(BOUNDARY_MIN_PITCH, EVENT + LABEL_GAP + labelWidth + BOUNDARY_GAP);
  }
  const width = Math.max(node.width, Math.ceil(x + BOUNDARY_INSET / 2));
  if (width > node.width) {
    // wider host, new middle: place again
    node.width = width;
    placeBoundaryEvents(node, boundaries);
    return;
  }
  for (const p of node.ports) {
    const side = p.layoutOptions['elk.port.side'];
    p.x = side === 'WEST' ? 0 : side === 'EAST' ? node.width : node.width / 2 + (p.id === loopInPort(node.id) ? -10 : 10);
    p.y = side === 'NORTH' ? 0 : node.height / 2;
  }
  node.ports.push(...boundaries);
  node.layoutOptions['elk.portConstraints'] = 'FIXED_POS';
  node.layoutOptions['elk.portLabels.placement'] = 'OUTSIDE ALWAYS_SAME_SIDE';
}

/** Half the width of the markers bpmn-js draws at the middle of the bottom edge (collapsed, call, loop), if any. */
function markerZone(node) {
  return node.markers ? 14 * node.markers : 0;
}

const inPort = id => id + '__in';
const outPort = id => id + '__out';
const loopInPort = id => id + '__loop_in';
const loopOutPort = id => id + '__loop_out';

/**
 * Flows with the same source and target (three conditions that all lead to the same place) are one line in the
 * drawing: ELK lays them out as one edge whose label is their names stacked, so the names stay together beside it.
 */
function parallelGroups(flows) {
  const groups = new Map();
  for (const flow of flows) {
    const key = flow.sourceRef.id + '>' + flow.targetRef.id;
    groups.set(key, [...(groups.get(key) || []), flow]);
  }
  return groups;
}

function elkEdge(group, back) {
  const [flow] = group;
  const source = flow.sourceRef;
  const goesBack = back.has(flow.id);
  const edge = {
    id: flow.id,
    flows: group,
    sources: [is(source, 'bpmn:BoundaryEvent') ? source.id : goesBack ? loopOutPort(source.id) : outPort(source.id)],
    targets: [goesBack ? loopInPort(flow.targetRef.id) : inPort(flow.targetRef.id)],
    labels: []
  };
  const names = group.filter(f => f.name).map(f => ({ id: f.id, text: f.name, ...externalLabelSize(f.name) }));
  if (names.length) {
    edge.labels.push({
      id: flow.id + '_label',
      text: names.map(n => n.text).join('\n'),
      width: Math.max(...names.map(n => n.width)),
      height: names.reduce((sum, n) => sum + n.height, 0) + STACKED_LABEL_GAP * (names.length - 1),
      names
    });
  }
  return edge;
}

/** The laid out graph as DI: shapes with bounds and label bounds, edges with waypoints, all in plane coordinates. */
function planeOf(container, flowElements, graph) {
  const elements = new Map(flowElements.map(e => [e.id, e]));
  const shapes = [];
  const bounds = new Map();
  for (const node of graph.children) {
    const shape = shapeOf(elements.get(node.id), node, 0, 0);
    shapes.push(shape);
    bounds.set(node.id, shape);
    for (const port of node.ports.filter(p => elements.has(p.id))) {
      const boundary = shapeOf(elements.get(port.id), port, node.x, node.y);
      shapes.push(boundary);
      bounds.set(port.id, boundary);
    }
  }
  const edges = graph.edges.flatMap(edge => edge.flows.map(flow => edgeOf(flow, edge, bounds)));
  return { element: container, shapes, edges };
}

function shapeOf(element, node, offsetX, offsetY) {
  const x = offsetX + node.x;
  const y = offsetY + node.y;
  const shape = { element, x, y, width: node.width, height: node.height, kind: kindOf(element) };
  const label = (node.labels || [])[0];
  if (label) {
    shape.label = { x: x + label.x, y: y + label.y, width: label.width, height: label.height };
  }
  return shape;
}

function kindOf(element) {
  if (is(element, 'bpmn:Event')) return 'event';
  if (is(element, 'bpmn:Gateway')) return 'gateway';
  return 'activity';
}

function edgeOf(flow, edge, bounds) {
  const section = edge.sections[0];
  const points = [section.startPoint, ...(section.bendPoints || []), section.endPoint].map(p => ({ x: p.x, y: p.y }));
  touchOutline(points, 0, 1, bounds.get(flow.sourceRef.id));
  touchOutline(points, points.length - 1, points.length - 2, bounds.get(flow.targetRef.id));
  const result = { element: flow, waypoints: points };
  const label = (edge.labels || [])[0];
  let y = label ? label.y : 0;
  for (const name of label ? label.names : []) {
    if (name.id === flow.id) {
      // centred in the stack, as bpmn-js centres a label's lines
      result.label = { x: label.x + (label.width - name.width) / 2, y, width: name.width, height: name.height };
    }
    y += name.height + STACKED_LABEL_GAP;
  }
  return result;
}

/**
 * ELK ends a flow on the bounding box; a circle or a diamond is smaller than its box, so the end moves along its
 * last segment onto the outline (the segments are horizontal or vertical).
 */
function touchOutline(points, end, next, shape) {
  if (shape.kind === 'activity') {
    return;
  }
  const p = points[end];
  const q = points[next];
  const cx = shape.x + shape.width / 2;
  const cy = shape.y + shape.height / 2;
  const r = shape.width / 2;
  const horizontal = Math.abs(p.y - q.y) < Math.abs(p.x - q.x);
  const off = horizontal ? Math.abs(p.y - cy) : Math.abs(p.x - cx);
  if (off >= r) {
    return;
  }
  const reach = shape.kind === 'event' ? Math.sqrt(r * r - off * off) : r - off;
  if (horizontal) {
    p.x = q.x < cx ? cx - reach : cx + reach;
  } else {
    p.y = q.y < cy ? cy - reach : cy + reach;
  }
}
