// React Router's cookies check and make each signature with WebCrypto, importing the key anew every time: a
// good part of what a signed-in request or a form post costs (decision 036). A cookie signs and
// checks the same every time (the secrets are the process's), so each answer is worked out once and kept.

/**
 * The answers to a signing or checking by what was signed or checked: the first call's promise is kept
 * (forgotten if it fails), at most `max` of them, all forgotten at once when full.
 */
export function signedOnce<T>(max: number) {
  const kept = new Map<string, Promise<T>>();
  return (key: string, work: () => Promise<T>, keep = true): Promise<T> => {
    let answer = kept.get(key);
    if (!answer) {
      answer = work();
      if (keep) {
        if (kept.size >= max) kept.clear();
        kept.set(key, answer);
        answer.catch(() => kept.delete(key));
      }
    }
    return answer;
  };
}
