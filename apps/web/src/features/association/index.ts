/** The association's face: the administrators' table, notices and query keys, the labels of movements, and typed amounts as settings read them. */
export { AdminTable } from "./admin/AdminTable";
export { SoleAdministratorNotice } from "./admin/SoleAdministratorNotice";
export { movementKindLabel } from "./admin/movement-kinds";
export { adminKeys } from "./admin/queries";
export { NOT_AN_AMOUNT, parseTypedAmount } from "./settings/form";
