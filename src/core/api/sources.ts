import { customSourcePath, type CustomSource } from "../sources/definition.js";
import type { EndpointDef } from "./endpoints.js";

export interface SourceParameter {
  name: string;
  required: boolean;
  default: string | null;
  description: string;
  example: string;
}

export interface Source {
  id: string;
  name: string;
  description: string;
  protocol: "http" | "https";
  host: string;
  path: string;
  query: SourceParameter[];
}

/** Where storefronts reach the service. */
export interface ServiceAddress {
  protocol: "http" | "https";
  host: string;
}

function queryOf(endpoint: EndpointDef): SourceParameter[] {
  return endpoint.params.map(({ name, required, default: fallback, description, example }) => ({
    name,
    required,
    default: fallback,
    description,
    example,
  }));
}

/** The spec's Source objects, generated from the definitions the server validates with. */
export function listSources(endpoints: readonly EndpointDef[], { protocol, host }: ServiceAddress): Source[] {
  return endpoints
    .filter((endpoint) => endpoint.isSource)
    .map((endpoint) => ({
      id: endpoint.path,
      name: endpoint.name,
      description: endpoint.description,
      protocol,
      host,
      path: endpoint.path,
      query: queryOf(endpoint),
    }));
}

/** A merchant's custom sources as Source objects: each at its own path, with the parameters `endpoint` (the custom source endpoint) validates. */
export function listCustomSources(endpoint: EndpointDef, sources: readonly CustomSource[], { protocol, host }: ServiceAddress): Source[] {
  const query = queryOf(endpoint);
  return sources.map((source) => ({
    id: customSourcePath(source.id),
    name: source.name,
    description: source.description,
    protocol,
    host,
    path: customSourcePath(source.id),
    query,
  }));
}
