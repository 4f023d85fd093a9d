package com.statefulcvm.processes.diagram;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * One .bpmn file as the diagram rules see it: its flow elements (each with the process or sub-process holding it)
 * and its diagram interchange (the planes, with their shapes and edges).
 */
record BpmnFile(String name, Map<String, FlowElement> elements, List<Plane> planes) {

    static final String MODEL = "http://www.omg.org/spec/BPMN/20100524/MODEL";
    static final String BPMNDI = "http://www.omg.org/spec/BPMN/20100524/DI";
    static final String DC = "http://www.omg.org/spec/DD/20100524/DC";
    static final String DI = "http://www.omg.org/spec/DD/20100524/DI";

    /** The BPMN types that are drawn: flow nodes, sequence flows and data references (the rest is not visual). */
    private static final Set<String> DRAWN = Set.of("sequenceFlow", "task", "callActivity", "subProcess", "transaction",
            "adHocSubProcess", "dataObjectReference", "dataStoreReference");

    /**
     * A drawn element of the process: kind is its BPMN element name, container the (sub-)process holding it;
     * attachedTo the host of a boundary event, source and target the ends of a sequence flow.
     */
    record FlowElement(String id, String kind, String container, String attachedTo, String source, String target, String name) {

        boolean isSubProcess() {
            return kind.equals("subProcess") || kind.equals("transaction") || kind.equals("adHocSubProcess");
        }

        boolean isBoundaryEvent() {
            return kind.equals("boundaryEvent");
        }
    }

    record Box(double x, double y, double width, double height) {

        boolean overlaps(Box other) {
            return x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height;
        }

        double centerX() {
            return x + width / 2;
        }

        double centerY() {
            return y + height / 2;
        }

        /** Whether the segment from a to b passes through the inside of this box (its border excepted). */
        boolean crossedBy(Point a, Point b, double inset) {
            double left = x + inset;
            double right = x + width - inset;
            double top = y + inset;
            double bottom = y + height - inset;
            if (left >= right || top >= bottom) {
                return false;
            }
            // Liang-Barsky clipping of the segment against the shrunken box
            double t0 = 0;
            double t1 = 1;
            double dx = b.x() - a.x();
            double dy = b.y() - a.y();
            double[] p = {-dx, dx, -dy, dy};
            double[] q = {a.x() - left, right - a.x(), a.y() - top, bottom - a.y()};
            for (int i = 0; i < 4; i++) {
                if (p[i] == 0) {
                    if (q[i] <= 0) {
                        return false;
                    }
                } else {
                    double t = q[i] / p[i];
                    if (p[i] < 0) {
                        t0 = Math.max(t0, t);
                    } else {
                        t1 = Math.min(t1, t);
                    }
                }
            }
            return t0 < t1;
        }

        /** Whether the point lies on this box or within tolerance of it. */
        boolean near(Point point, double tolerance) {
            return point.x() >= x - tolerance && point.x() <= x + width + tolerance
                    && point.y() >= y - tolerance && point.y() <= y + height + tolerance;
        }
    }

    record Point(double x, double y) {
    }

    record Shape(String element, Box bounds, Box label, boolean expanded) {
    }

    record Edge(String element, List<Point> waypoints, Box label) {
    }

    record Plane(String id, String element, List<Shape> shapes, List<Edge> edges) {
    }

    static BpmnFile read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(file.getFileName().toString(), in);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    static BpmnFile parse(String name, InputStream in) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document document = factory.newDocumentBuilder().parse(in);
            Map<String, FlowElement> elements = new LinkedHashMap<>();
            for (Element process : children(document.getDocumentElement(), MODEL, "process")) {
                collect(process, elements);
            }
            List<Plane> planes = new ArrayList<>();
            for (Element diagram : children(document.getDocumentElement(), BPMNDI, "BPMNDiagram")) {
                for (Element plane : children(diagram, BPMNDI, "BPMNPlane")) {
                    planes.add(plane(plane));
                }
            }
            return new BpmnFile(name, elements, planes);
        } catch (IOException | ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("cannot read " + name + ": " + e.getMessage(), e);
        }
    }

    private static void collect(Element container, Map<String, FlowElement> elements) {
        for (Element child : children(container, MODEL, null)) {
            String kind = child.getLocalName();
            if (!drawn(kind)) {
                continue;
            }
            FlowElement element = new FlowElement(child.getAttribute("id"), kind, container.getAttribute("id"),
                    attribute(child, "attachedToRef"), attribute(child, "sourceRef"), attribute(child, "targetRef"),
                    attribute(child, "name"));
            elements.put(element.id(), element);
            if (element.isSubProcess()) {
                collect(child, elements);
            }
        }
    }

    private static String attribute(Element element, String name) {
        return element.hasAttribute(name) ? element.getAttribute(name) : null;
    }

    private static boolean drawn(String kind) {
        return DRAWN.contains(kind) || kind.endsWith("Event") || kind.endsWith("Task") || kind.endsWith("Gateway");
    }

    private static Plane plane(Element plane) {
        List<Shape> shapes = new ArrayList<>();
        for (Element shape : children(plane, BPMNDI, "BPMNShape")) {
            shapes.add(new Shape(shape.getAttribute("bpmnElement"), box(first(shape, DC, "Bounds")), label(shape),
                    "true".equals(shape.getAttribute("isExpanded"))));
        }
        List<Edge> edges = new ArrayList<>();
        for (Element edge : children(plane, BPMNDI, "BPMNEdge")) {
            List<Point> points = new ArrayList<>();
            for (Element waypoint : children(edge, DI, "waypoint")) {
                points.add(new Point(number(waypoint, "x"), number(waypoint, "y")));
            }
            edges.add(new Edge(edge.getAttribute("bpmnElement"), points, label(edge)));
        }
        return new Plane(plane.getAttribute("id"), plane.getAttribute("bpmnElement"), shapes, edges);
    }

    private static Box label(Element owner) {
        Element label = first(owner, BPMNDI, "BPMNLabel");
        return label == null ? null : box(first(label, DC, "Bounds"));
    }

    private static Box box(Element bounds) {
        if (bounds == null) {
            return null;
        }
        return new Box(number(bounds, "x"), number(bounds, "y"), number(bounds, "width"), number(bounds, "height"));
    }

    private static double number(Element element, String attribute) {
        return Double.parseDouble(element.getAttribute(attribute));
    }

    private static Element first(Element parent, String namespace, String name) {
        List<Element> found = children(parent, namespace, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(Element parent, String namespace, String name) {
        List<Element> found = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && namespace.equals(element.getNamespaceURI())
                    && (name == null || name.equals(element.getLocalName()))) {
                found.add(element);
            }
        }
        return found;
    }
}
