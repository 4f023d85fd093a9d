package com.statefulcvm.processes.diagram;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import com.statefulcvm.processes.diagram.BpmnFile.Box;
import com.statefulcvm.processes.diagram.BpmnFile.Edge;
import com.statefulcvm.processes.diagram.BpmnFile.FlowElement;
import com.statefulcvm.processes.diagram.BpmnFile.Plane;
import com.statefulcvm.processes.diagram.BpmnFile.Point;
import com.statefulcvm.processes.diagram.BpmnFile.Shape;

/**
 * What makes a diagram draw right in any BPMN 2.0 tool, not only in bpmn-js (which repairs some of it at import):
 * every flow element drawn once, in the plane of the (sub-)process that holds it; a collapsed sub-process with its
 * own plane; no two shapes on each other; boundary events apart on their host; labels clear of shapes and of each
 * other; flows that start at their source, end at their target and run through no other shape.
 */
final class DiagramRules {

    enum Rule { NOT_DRAWN, DRAWN_TWICE, WRONG_PLANE, UNKNOWN_ELEMENT, NO_PLANE, OVERLAP, DETACHED_BOUNDARY,
        CROWDED_BOUNDARIES, LABEL_OVERLAP, FLOW_DETACHED, FLOW_THROUGH_SHAPE, FLOW_THROUGH_LABEL,
        FLOWS_SHARE_A_LINE, EXPRESSION_IN_LABEL }

    record Problem(Rule rule, String message) {

        @Override
        public String toString() {
            return rule + ": " + message;
        }
    }

    /** How far a flow may end from its shape's border, and how deep into a shape a flow counts as running through it. */
    private static final double TOLERANCE = 2;

    private final BpmnFile file;
    private final Map<String, Shape> shapes = new HashMap<>();
    private final Map<String, String> planeOf = new HashMap<>();
    private final List<Problem> problems = new ArrayList<>();

    private DiagramRules(BpmnFile file) {
        this.file = file;
    }

    static List<Problem> check(BpmnFile file) {
        DiagramRules rules = new DiagramRules(file);
        rules.indexDrawnElements();
        rules.everyElementDrawnInItsPlane();
        rules.collapsedSubProcessesHaveTheirPlane();
        rules.labelsInWords();
        for (Plane plane : file.planes()) {
            rules.noOverlaps(plane);
            rules.boundaryEventsOnTheirHostAndApart(plane);
            rules.labelsClear(plane);
            rules.flowsConnectAndGoAround(plane);
            rules.flowsKeepApart(plane);
        }
        return rules.problems;
    }

    /**
     * A label is what a diagram shows, and no BPMN tool evaluates it: "Drain ${slot}" would be drawn as written. A
     * user task names its Tasklist task with a create listener, a reported step keeps its name in a stepName property.
     */
    private void labelsInWords() {
        for (FlowElement element : file.elements().values()) {
            if (element.name() != null && element.name().contains("${")) {
                problem(Rule.EXPRESSION_IN_LABEL, element.kind() + " " + element.id() + " is labelled with an expression, drawn as written: '"
                        + element.name() + "'");
            }
        }
    }

    private void problem(Rule rule, String message) {
        problems.add(new Problem(rule, message));
    }

    private void indexDrawnElements() {
        for (Plane plane : file.planes()) {
            List<String> ids = new ArrayList<>();
            plane.shapes().forEach(s -> ids.add(s.element()));
            plane.edges().forEach(e -> ids.add(e.element()));
            for (Shape shape : plane.shapes()) {
                shapes.put(shape.element(), shape);
            }
            for (String id : ids) {
                if (!file.elements().containsKey(id)) {
                    problem(Rule.UNKNOWN_ELEMENT, "plane " + plane.id() + " draws " + id + ", which the process does not have");
                } else if (planeOf.put(id, plane.element()) != null) {
                    problem(Rule.DRAWN_TWICE, id + " is drawn more than once");
                }
            }
        }
    }

    /** The plane an element belongs in: its process's, its collapsed sub-process's, or that of an expanded one's. */
    private String expectedPlane(FlowElement element) {
        FlowElement container = file.elements().get(element.container());
        if (container == null) {
            return element.container();
        }
        Shape containerShape = shapes.get(container.id());
        return containerShape != null && containerShape.expanded() ? expectedPlane(container) : container.id();
    }

    private void everyElementDrawnInItsPlane() {
        for (FlowElement element : file.elements().values()) {
            String plane = planeOf.get(element.id());
            if (plane == null) {
                problem(Rule.NOT_DRAWN, element.kind() + " " + element.id() + " has no shape or edge");
            } else if (!plane.equals(expectedPlane(element))) {
                problem(Rule.WRONG_PLANE, element.id() + " is drawn in the plane of " + plane + ", it belongs in the plane of "
                        + expectedPlane(element));
            }
        }
    }

    private void collapsedSubProcessesHaveTheirPlane() {
        Set<String> planes = file.planes().stream().map(Plane::element).collect(Collectors.toSet());
        for (FlowElement element : file.elements().values()) {
            Shape shape = shapes.get(element.id());
            boolean hasChildren = file.elements().values().stream().anyMatch(e -> e.container().equals(element.id()));
            if (element.isSubProcess() && hasChildren && shape != null && !shape.expanded() && !planes.contains(element.id())) {
                problem(Rule.NO_PLANE, "collapsed sub-process " + element.id() + " has no BPMNDiagram plane of its own");
            }
        }
    }

    /** Whether a and b may share space: a boundary event and its host, a shape and an expanded sub-process around it. */
    private boolean mayOverlap(String a, String b) {
        FlowElement first = file.elements().get(a);
        FlowElement second = file.elements().get(b);
        if (first == null || second == null) {
            return true;
        }
        return b.equals(first.attachedTo()) || a.equals(second.attachedTo()) || encloses(a, b) || encloses(b, a);
    }

    private boolean encloses(String outer, String inner) {
        Shape outerShape = shapes.get(outer);
        if (outerShape == null || !outerShape.expanded()) {
            return false;
        }
        for (FlowElement e = file.elements().get(inner); e != null; e = file.elements().get(e.container())) {
            if (e.container().equals(outer) || outer.equals(e.attachedTo())) {
                return true;
            }
        }
        return false;
    }

    private void noOverlaps(Plane plane) {
        List<Shape> list = plane.shapes();
        for (int i = 0; i < list.size(); i++) {
            for (int j = i + 1; j < list.size(); j++) {
                Shape a = list.get(i);
                Shape b = list.get(j);
                if (a.bounds().overlaps(b.bounds()) && !mayOverlap(a.element(), b.element())) {
                    problem(Rule.OVERLAP, a.element() + " and " + b.element() + " overlap in the plane of " + plane.element());
                }
            }
        }
    }

    private void boundaryEventsOnTheirHostAndApart(Plane plane) {
        Map<String, List<Shape>> byHost = new HashMap<>();
        for (Shape shape : plane.shapes()) {
            FlowElement element = file.elements().get(shape.element());
            if (element == null || !element.isBoundaryEvent()) {
                continue;
            }
            Shape host = shapes.get(element.attachedTo());
            if (host == null || !onBorder(shape.bounds(), host.bounds())) {
                problem(Rule.DETACHED_BOUNDARY, "boundary event " + element.id() + " does not sit on the border of "
                        + element.attachedTo());
            }
            byHost.computeIfAbsent(element.attachedTo(), h -> new ArrayList<>()).add(shape);
        }
        for (List<Shape> events : byHost.values()) {
            for (int i = 0; i < events.size(); i++) {
                for (int j = i + 1; j < events.size(); j++) {
                    Box a = events.get(i).bounds();
                    Box b = events.get(j).bounds();
                    double distance = Math.hypot(a.centerX() - b.centerX(), a.centerY() - b.centerY());
                    if (distance < Math.max(a.width(), b.width())) {
                        problem(Rule.CROWDED_BOUNDARIES, "boundary events " + events.get(i).element() + " and "
                                + events.get(j).element() + " are " + Math.round(distance) + " px apart, less than their size");
                    }
                }
            }
        }
    }

    /** The event's centre lies on the host's outline (within the event's radius). */
    private static boolean onBorder(Box event, Box host) {
        double r = event.width() / 2;
        double cx = event.centerX();
        double cy = event.centerY();
        boolean withinX = cx >= host.x() - r && cx <= host.x() + host.width() + r;
        boolean withinY = cy >= host.y() - r && cy <= host.y() + host.height() + r;
        boolean nearVertical = Math.abs(cx - host.x()) <= r || Math.abs(cx - host.x() - host.width()) <= r;
        boolean nearHorizontal = Math.abs(cy - host.y()) <= r || Math.abs(cy - host.y() - host.height()) <= r;
        return withinX && withinY && (nearVertical || nearHorizontal);
    }

    private void labelsClear(Plane plane) {
        List<Map.Entry<String, Box>> labels = new ArrayList<>();
        plane.shapes().stream().filter(s -> s.label() != null).forEach(s -> labels.add(Map.entry(s.element(), s.label())));
        plane.edges().stream().filter(e -> e.label() != null).forEach(e -> labels.add(Map.entry(e.element(), e.label())));
        for (int i = 0; i < labels.size(); i++) {
            Map.Entry<String, Box> label = labels.get(i);
            for (Shape shape : plane.shapes()) {
                if (label.getValue().overlaps(shape.bounds()) && !encloses(shape.element(), label.getKey())) {
                    problem(Rule.LABEL_OVERLAP, "the label of " + label.getKey() + " lies on " + shape.element());
                }
            }
            for (int j = i + 1; j < labels.size(); j++) {
                if (label.getValue().overlaps(labels.get(j).getValue())) {
                    problem(Rule.LABEL_OVERLAP, "the labels of " + label.getKey() + " and " + labels.get(j).getKey() + " overlap");
                }
            }
        }
    }

    private void flowsConnectAndGoAround(Plane plane) {
        for (Edge edge : plane.edges()) {
            FlowElement flow = file.elements().get(edge.element());
            if (flow == null || flow.source() == null || edge.waypoints().size() < 2) {
                continue;
            }
            String[] ends = {flow.source(), flow.target()};
            Shape source = shapes.get(ends[0]);
            Shape target = shapes.get(ends[1]);
            List<Point> points = edge.waypoints();
            if (source != null && !source.bounds().near(points.get(0), TOLERANCE)) {
                problem(Rule.FLOW_DETACHED, flow.id() + " does not start at " + ends[0]);
            }
            if (target != null && !target.bounds().near(points.get(points.size() - 1), TOLERANCE)) {
                problem(Rule.FLOW_DETACHED, flow.id() + " does not end at " + ends[1]);
            }
            for (Shape shape : plane.shapes()) {
                if (!shape.element().equals(ends[0]) && !shape.element().equals(ends[1]) && !related(shape.element(), ends)
                        && crosses(points, shape.bounds())) {
                    problem(Rule.FLOW_THROUGH_SHAPE, flow.id() + " runs through " + shape.element());
                }
                if (shape.label() != null && crosses(points, shape.label())) {
                    problem(Rule.FLOW_THROUGH_LABEL, flow.id() + " runs through the label of " + shape.element());
                }
            }
            for (Edge other : plane.edges()) {
                if (other != edge && other.label() != null && crosses(points, other.label())) {
                    problem(Rule.FLOW_THROUGH_LABEL, flow.id() + " runs through the label of " + other.element());
                }
            }
        }
    }

    /**
     * Two flows share a line only where they meet anyway: leaving the same element or entering the same one. Flows
     * that have neither end in common and run along the same stretch cannot be told apart.
     */
    private void flowsKeepApart(Plane plane) {
        List<Edge> edges = plane.edges();
        for (int i = 0; i < edges.size(); i++) {
            for (int j = i + 1; j < edges.size(); j++) {
                FlowElement a = file.elements().get(edges.get(i).element());
                FlowElement b = file.elements().get(edges.get(j).element());
                if (a == null || b == null || a.source() == null || b.source() == null
                        || a.source().equals(b.source()) || a.target().equals(b.target())) {
                    continue;
                }
                if (shareALine(edges.get(i).waypoints(), edges.get(j).waypoints())) {
                    problem(Rule.FLOWS_SHARE_A_LINE, a.id() + " and " + b.id() + " run along the same line");
                }
            }
        }
    }

    private static boolean shareALine(List<Point> first, List<Point> second) {
        for (int i = 1; i < first.size(); i++) {
            for (int j = 1; j < second.size(); j++) {
                if (overlapLength(first.get(i - 1), first.get(i), second.get(j - 1), second.get(j)) > TOLERANCE * 2) {
                    return true;
                }
            }
        }
        return false;
    }

    /** How long two horizontal or two vertical segments on the same line run together (0 for any other pair). */
    private static double overlapLength(Point a1, Point a2, Point b1, Point b2) {
        boolean aHorizontal = Math.abs(a1.y() - a2.y()) < 0.5;
        boolean bHorizontal = Math.abs(b1.y() - b2.y()) < 0.5;
        boolean aVertical = Math.abs(a1.x() - a2.x()) < 0.5;
        boolean bVertical = Math.abs(b1.x() - b2.x()) < 0.5;
        if (aHorizontal && bHorizontal && Math.abs(a1.y() - b1.y()) < 1) {
            return Math.min(Math.max(a1.x(), a2.x()), Math.max(b1.x(), b2.x()))
                    - Math.max(Math.min(a1.x(), a2.x()), Math.min(b1.x(), b2.x()));
        }
        if (aVertical && bVertical && Math.abs(a1.x() - b1.x()) < 1) {
            return Math.min(Math.max(a1.y(), a2.y()), Math.max(b1.y(), b2.y()))
                    - Math.max(Math.min(a1.y(), a2.y()), Math.min(b1.y(), b2.y()));
        }
        return 0;
    }

    private static boolean crosses(List<Point> points, Box box) {
        for (int i = 1; i < points.size(); i++) {
            if (box.crossedBy(points.get(i - 1), points.get(i), TOLERANCE)) {
                return true;
            }
        }
        return false;
    }

    /** The host of a boundary event at either end, or an expanded sub-process around the flow. */
    private boolean related(String shape, String[] ends) {
        for (String end : ends) {
            FlowElement element = file.elements().get(end);
            if (element != null && shape.equals(element.attachedTo()) || encloses(shape, end)) {
                return true;
            }
        }
        return false;
    }
}
