import { type Route, type RouteAccess, UNMATCHED_ROUTE_HANDLER, pathsOf, routes } from '../lib/http/routes';

/** Who may call a route, and `unmatched` for the catch-all routes that answer 404 and 405. */
export type RouteClass = RouteAccess | 'unmatched';

/** One route of the v1 stage: its API Gateway route key, the function behind it and its class. */
export interface StageRoute {
  /** `GET /group-shoot/checkin/{token}`, `ANY /group-shoot`, or `$default`. */
  key: string;
  method: Route['method'] | 'ANY' | undefined;
  path: string | undefined;
  handler: string;
  routeClass: RouteClass;
}

/**
 * Every route of the stage, from the route module: each route on its primary path and alias,
 * the ANY route of every known path and $default (both to the function that answers 404/405).
 * The stack creates exactly these and throttles each by its class.
 */
export function stageRoutes(): StageRoute[] {
  const declared = (routes as readonly Route[]).flatMap((route) =>
    pathsOf(route).map((path) => ({
      key: `${route.method} ${path}`,
      method: route.method,
      path,
      handler: route.handler,
      routeClass: route.access,
    })),
  );
  const knownPaths = [...new Set(declared.map((route) => route.path))];
  const catchAlls: StageRoute[] = knownPaths.map((path) => ({
    key: `ANY ${path}`,
    method: 'ANY',
    path,
    handler: UNMATCHED_ROUTE_HANDLER,
    routeClass: 'unmatched',
  }));
  return [
    ...declared,
    ...catchAlls,
    { key: '$default', method: undefined, path: undefined, handler: UNMATCHED_ROUTE_HANDLER, routeClass: 'unmatched' },
  ];
}

/**
 * The class of each function behind the API (by handler name). A function serves routes of one
 * class only, so that a reservation or cap of its class means one thing.
 */
export function functionClasses(): Map<string, RouteClass> {
  const classes = new Map<string, RouteClass>();
  for (const route of stageRoutes()) {
    const known = classes.get(route.handler);
    if (known && known !== route.routeClass) {
      throw new Error(
        `Function ${route.handler} serves ${known} and ${route.routeClass} routes; give each class its own function.`,
      );
    }
    classes.set(route.handler, route.routeClass);
  }
  return classes;
}
