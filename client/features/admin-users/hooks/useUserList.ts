import { useQuery } from '@tanstack/react-query';
import { adminUserListQuery } from '../api.js';
import { useUserListParams } from './useUserListParams.js';

/** The users list as the URL asks for it, with the means to change what it shows. */
export function useUserList() {
  const state = useUserListParams();
  const list = useQuery(adminUserListQuery(state.query));
  return { ...state, list };
}
