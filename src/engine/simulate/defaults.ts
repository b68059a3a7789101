/**
 * The QoS controllers a simulation runs under when it names none (src/engine/qos): a plan replay under
 * Salamander's (Alg. 3, the controller its plans are made for), an online policy under Cuckoo's (III-D, the
 * controller of the Hadoop/Cuckoo baselines the policies are compared with). The API documents and applies
 * these same constants (src/modules/simulations/simulation-defaults.ts).
 */
export const PLAN_REPLAY_QOS = 'salamander';
export const POLICY_RUN_QOS = 'cuckoo';
