/** `p`, or a rejection with `message` once `ms` have passed (the timer never keeps the process alive). */
export function withTimeout<T>(p: Promise<T>, ms: number, message = `no answer in ${ms} ms`): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
