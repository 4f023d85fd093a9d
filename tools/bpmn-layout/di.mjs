// Writes laid out planes as BPMN 2.0 DI XML (bpmndi/dc/di prefixes), one BPMNDiagram per plane.

const round = v => Math.round(v);

function escape(value) {
  return String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function bounds({ x, y, width, height }) {
  return `<dc:Bounds x="${round(x)}" y="${round(y)}" width="${round(width)}" height="${round(height)}" />`;
}

function label(box, indent) {
  return box ? `${indent}  <bpmndi:BPMNLabel>\n${indent}    ${bounds(box)}\n${indent}  </bpmndi:BPMNLabel>\n` : '';
}

function shapeXml(shape, indent) {
  const id = escape(shape.element.id);
  let attributes = `id="${id}_di" bpmnElement="${id}"`;
  if (shape.element.$instanceOf('bpmn:ExclusiveGateway')) {
    attributes += ' isMarkerVisible="true"';
  }
  if (shape.element.$instanceOf('bpmn:SubProcess')) {
    attributes += ' isExpanded="false"';
  }
  return `${indent}<bpmndi:BPMNShape ${attributes}>\n${indent}  ${bounds(shape)}\n${label(shape.label, indent)}`
    + `${indent}</bpmndi:BPMNShape>\n`;
}

function edgeXml(edge, indent) {
  const id = escape(edge.element.id);
  const points = edge.waypoints.map(p => `${indent}  <di:waypoint x="${round(p.x)}" y="${round(p.y)}" />\n`).join('');
  return `${indent}<bpmndi:BPMNEdge id="${id}_di" bpmnElement="${id}">\n${points}${label(edge.label, indent)}`
    + `${indent}</bpmndi:BPMNEdge>\n`;
}

/** All planes as XML, each line starting with indent; no trailing newline. */
export function diagramXml(planes, indent) {
  return planes.map(plane => {
    const id = escape(plane.element.id);
    const inner = indent + '    ';
    return `${indent}<bpmndi:BPMNDiagram id="BPMNDiagram_${id}">\n`
      + `${indent}  <bpmndi:BPMNPlane id="BPMNPlane_${id}" bpmnElement="${id}">\n`
      + plane.shapes.map(s => shapeXml(s, inner)).join('')
      + plane.edges.map(e => edgeXml(e, inner)).join('')
      + `${indent}  </bpmndi:BPMNPlane>\n${indent}</bpmndi:BPMNDiagram>`;
  }).join('\n');
}
