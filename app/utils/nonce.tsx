import { createContext, useContext } from "react";

// The CSP nonce of this response, for <Scripts> and friends. Only the server render has it: browsers
// hide nonce attributes from scripts, so on the client it is simply empty.
const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
