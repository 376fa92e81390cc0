import type { RouteConfig } from "@react-router/dev/routes";
import { prefix, route } from "@react-router/dev/routes";
import { flatRoutes } from "@react-router/fs-routes";

// The screens are file-based (app/routes), plus two aliases: /memorial/{id} shows the same page as
// /memorials/{id}, and /market the browse page of /memorials.
//
// The /api is declared here, one line per call, grouped by area, so this file
// reads as the contract. Each module declares per method who may call it
// (app/request/api-route.server.ts); test/api-access.test.ts holds every method to its access level.
export default [
  ...(await flatRoutes({ ignoredRouteFiles: ["**/*.test.*", "**/*.server.*", "api/**"] })),
  route("memorial/:id", "routes/memorials.$id._index.tsx", { id: "memorial-alias" }),
  route("market", "routes/memorials._index.tsx", { id: "market" }),

  ...prefix("api", [
    // Signing in, memorials, tributes, the AI helpers and feedback
    route("auth/user", "routes/api/auth.user.ts"), //                          GET (member)
    route("auth/login", "routes/api/auth.login.ts"), //                        POST
    route("auth/register", "routes/api/auth.register.ts"), //                  POST
    route("auth/logout", "routes/api/auth.logout.ts"), //                      POST
    route("memorials", "routes/api/memorials.ts"), //                          GET ?visibility ?userId ?search (?admin=true: admin), POST (member)
    route("memorials/:id", "routes/api/memorials.$id.ts"), //                  GET, PUT and DELETE (member)
    route("memorials/:id/profile-image", "routes/api/memorials.$id.profile-image.ts"), // POST (member)
    route("memorials/:id/media", "routes/api/memorials.$id.media.ts"), //      GET, POST (member)
    route("memorials/media/:mediaId", "routes/api/memorials.media.$mediaId.ts"), // DELETE (member)
    route("memorials/:id/tributes", "routes/api/memorials.$id.tributes.ts"), // GET ?approved ?page, POST
    route("memorials/:id/view", "routes/api/memorials.$id.view.ts"), //        POST
    route("tributes/pending", "routes/api/tributes.pending.ts"), //            GET (member)
    route("tributes/:id/approve", "routes/api/tributes.$id.approve.ts"), //    PUT (member)
    route("tributes/:id", "routes/api/tributes.$id.ts"), //                    DELETE (member)
    route("ai/generate-biography", "routes/api/ai.generate-biography.ts"), //  POST (member)
    route("ai/generate-tribute", "routes/api/ai.generate-tribute.ts"), //      POST
    route("popup-state/:type", "routes/api/popup-state.$type.ts"), //          GET (member)
    route("popup-state/:type/:event", "routes/api/popup-state.$type.$event.ts"), // POST complete|skip (member)
    route("feedback", "routes/api/feedback.ts"), //                            GET, POST (member)

    // Auth and account
    route("auth/profile", "routes/api/auth.profile.ts"), //                    PUT (member)
    route("auth/change-password", "routes/api/auth.change-password.ts"), //    PUT (member)
    route("auth/profile-picture", "routes/api/auth.profile-picture.ts"), //    PUT (member)
    // Cart and shop
    route("products", "routes/api/products.ts"), //                            GET ?category
    route("cart", "routes/api/cart.ts"), //                                    GET, POST, DELETE (member)
    route("cart/:id", "routes/api/cart.$id.ts"), //                            PUT, DELETE (member)
    // Checkout and orders; Stripe's webhook
    route("create-payment-intent", "routes/api/create-payment-intent.ts"), //  POST (member)
    route("orders/create-from-payment", "routes/api/orders.create-from-payment.ts"), // POST (member)
    route("orders", "routes/api/orders.ts"), //                                GET (member)
    route("stripe/webhook", "routes/api/stripe.webhook.ts"), //                POST (Stripe, by its signature)
    // Subscription, and ours: cancelling for real
    route("create-subscription-payment", "routes/api/create-subscription-payment.ts"), // POST (member)
    route("complete-subscription-upgrade", "routes/api/complete-subscription-upgrade.ts"), // POST (member)
    route("cancel-subscription", "routes/api/cancel-subscription.ts"), //      POST (member)
    // Vault
    route("vault/password", "routes/api/vault.password.ts"), //                GET, POST (member)
    route("vault/verify", "routes/api/vault.verify.ts"), //                    POST (member)
    route("vault/files", "routes/api/vault.files.ts"), //                      GET, POST (member)
    route("vault/files/:id", "routes/api/vault.files.$id.ts"), //              DELETE (member)
    route("vault/files/:id/download", "routes/api/vault.files.$id.download.ts"), // GET (member)
    // Friends, news and contact
    route("friends", "routes/api/friends.ts"), //                              GET ?page (member)
    route("friends/requests", "routes/api/friends.requests.ts"), //            GET ?direction=received|sent (member)
    route("friends/search", "routes/api/friends.search.ts"), //                GET ?email= (member)
    route("friends/request", "routes/api/friends.request.ts"), //              POST receiverId (member)
    route("friends/requests/:id/respond", "routes/api/friends.requests.$id.respond.ts"), // POST response (member)
    route("friends/:id", "routes/api/friends.$id.ts"), //                      DELETE (member)
    route("news", "routes/api/news.ts"), //                                    GET ?page
    route("contact", "routes/api/contact.ts"), //                              POST
    // Admin
    // (GET /api/memorials?admin=true, PUT /api/tributes/{id}/approve and DELETE /api/tributes/{id} are above;
    // GET /api/feedback answers an administrator everyone's.)
    route("tributes", "routes/api/tributes.ts"), //                            GET ?approved=false (admin)
    route("admin/users", "routes/api/admin.users.ts"), //                      GET ?search (admin)
    route("admin/users/:id", "routes/api/admin.users.$id.ts"), //              DELETE, PATCH isAdmin (admin)
    route("admin/contact-messages", "routes/api/admin.contact-messages.ts"), // GET (admin)
    route("admin/contact-messages/:id/status", "routes/api/admin.contact-messages.$id.status.ts"), // PATCH status (admin)
    route("admin/products", "routes/api/admin.products.ts"), //                GET, POST (admin)
    route("admin/products/:id", "routes/api/admin.products.$id.ts"), //        PUT, DELETE (admin)
    route("admin/orders", "routes/api/admin.orders.ts"), //                    GET (admin)
    route("admin/news/count", "routes/api/admin.news.count.ts"), //            GET (admin)
    route("admin/news/fetch", "routes/api/admin.news.fetch.ts"), //            POST (admin)

    // Our own additions: the share buttons' record, the tribute assistant writing as it goes, and
    // withdrawing a friend request.
    route("memorials/:id/share", "routes/api/memorials.$id.share.ts"), //      POST
    route("ai/stream-tribute", "routes/api/ai.stream-tribute.ts"), //          POST
    // Ours: the built-in test provider's payment, paid through the /api.
    route("test-payments/pay", "routes/api/test-payments.pay.ts"), //          POST (member)
    route("friends/requests/:id", "routes/api/friends.requests.$id.ts"), //    DELETE: cancel a request I sent (member)
    // Ours: an order's status from the /api, as the Orders tab changes it.
    route("admin/orders/:id/status", "routes/api/admin.orders.$id.status.ts"), // PATCH status (admin)

    route("*", "routes/api/not-found.ts", { id: "api-not-found" }),
  ]),
] satisfies RouteConfig;
