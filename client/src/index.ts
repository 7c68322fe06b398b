// aisle's typed storefront client: createClient for every endpoint,
// searchAsYouType for a search box, createTracker for behaviour events.
export * from "./api.js";
export { AisleError, createClient, type CallOptions, type Client, type ClientOptions, type OperationId } from "./client.js";
export { searchAsYouType, type Keystrokes } from "./keystrokes.js";
export {
  createTracker,
  randomUuid,
  type EventVerb,
  type KeyValueStorage,
  type SendOptions,
  type Tracker,
  type TrackerOptions,
} from "./tracking.js";
