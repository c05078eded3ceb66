"""Reads a registry with the Python clients data people use, and prints what each understood as JSON.

Usage: python3 sparql_clients.py <endpoint URL> [<record IRI>...]
Reads SELECT, ASK and CONSTRUCT answers through SPARQLWrapper (its default XML, and JSON, CSV, TSV) and through
rdflib's SPARQLStore, and each record IRI with rdflib's Graph().parse, each with the Accept header the library
itself sends.
"""
import csv
import io
import json
import sys

from rdflib import Graph, URIRef
from rdflib.plugins.stores.sparqlstore import SPARQLStore
from SPARQLWrapper import CSV, JSON, TSV, XML, SPARQLWrapper

REG = "https://w3id.org/reg/ns#"
NAME = URIRef("https://schema.org/name")
SELECT = (
    f"SELECT ?s ?name WHERE {{ ?s a <{REG}Software> ; <https://schema.org/name> ?name }} ORDER BY ?name LIMIT 100"
)
ASK = f"ASK {{ ?s a <{REG}Software> }}"
CONSTRUCT = (
    f"CONSTRUCT {{ ?s <https://schema.org/name> ?name }} "
    f"WHERE {{ ?s a <{REG}Software> ; <https://schema.org/name> ?name }}"
)


def wrapper(endpoint, query, return_format=None):
    client = SPARQLWrapper(endpoint)
    client.setQuery(query)
    if return_format is not None:
        client.setReturnFormat(return_format)
    return client.query().convert()


def names_of(graph):
    return sorted([str(s), str(o)] for s, _, o in graph.triples((None, NAME, None)))


def main(endpoint, records):
    out = {}
    # rdflib dereferencing record IRIs, as `Graph().parse(iri)` does: by its default Accept, and asking for Turtle.
    out["records"] = []
    for iri in records:
        parsed = Graph()
        parsed.parse(iri)
        turtle = Graph()
        turtle.parse(iri, format="turtle")
        out["records"].append(
            {
                "triples": len(parsed),
                "same_as_turtle": len(parsed) == len(turtle) and all(t in turtle for t in parsed),
                "names": [str(o) for o in parsed.objects(URIRef(iri), NAME)],
            }
        )
    # SPARQLWrapper's default: SPARQL XML results, read with minidom.
    document = wrapper(endpoint, SELECT)
    rows = []
    for result in document.getElementsByTagName("result"):
        row = {}
        for binding in result.getElementsByTagName("binding"):
            row[binding.getAttribute("name")] = binding.firstChild.firstChild.nodeValue
        rows.append(row)
    out["wrapper_xml"] = [[row["s"], row["name"]] for row in rows]
    answer = wrapper(endpoint, SELECT, JSON)
    out["wrapper_json"] = [[b["s"]["value"], b["name"]["value"]] for b in answer["results"]["bindings"]]
    table = list(csv.reader(io.StringIO(wrapper(endpoint, SELECT, CSV).decode("utf-8"))))
    out["wrapper_csv"] = table
    out["wrapper_tsv"] = [line.split("\t") for line in wrapper(endpoint, SELECT, TSV).decode("utf-8").splitlines()]
    out["wrapper_ask_xml"] = wrapper(endpoint, ASK, XML).getElementsByTagName("boolean")[0].firstChild.nodeValue
    # A CONSTRUCT in SPARQLWrapper's default comes as RDF/XML, parsed into an rdflib graph.
    out["wrapper_construct"] = names_of(wrapper(endpoint, CONSTRUCT))
    # rdflib's SPARQLStore, as rdflib users query a remote endpoint.
    store = SPARQLStore(query_endpoint=endpoint)
    out["store_select"] = sorted([str(row.s), str(row.name)] for row in store.query(SELECT))
    out["store_ask"] = bool(store.query(ASK).askAnswer)
    out["store_construct"] = names_of(store.query(CONSTRUCT).graph)
    remote = Graph(store=SPARQLStore(query_endpoint=endpoint))
    out["graph_construct"] = names_of(remote.query(CONSTRUCT).graph)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
