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
      query: endpoint.params.map(({ name, required, default: fallback, description, example }) => ({
        name,
        required,
        default: fallback,
        description,
        example,
      })),
    }));
}
